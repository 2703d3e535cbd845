/**
 * Whether a request asks for a page: its `Accept` names `text/html` and
 * ranks it at least as high as `application/json`. Wildcards do not count:
 * `curl` (which accepts any type) and API clients keep their JSON answers (issue 22: the API
 * answers stay as they are for `Accept: application/json`). By hand rather
 * than a negotiation package: two media types are compared, nothing more.
 */
export function prefersHtml(accept: string | string[] | undefined): boolean {
  const quality = new Map<string, number>()
  for (const part of (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).split(',')) {
    const [type, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    const q = params.find((param) => param.startsWith('q='))
    const value = q === undefined ? 1 : Number(q.slice(2))
    if (type && Number.isFinite(value)) quality.set(type, Math.max(quality.get(type) ?? 0, value))
  }
  const html = quality.get('text/html') ?? 0
  return html > 0 && html >= (quality.get('application/json') ?? 0)
}
