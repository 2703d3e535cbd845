/**
 * Kebab-case of a free text: accents folded ("Café" → "cafe"), lowercase,
 * every run of other characters one hyphen, none at either end; "" when
 * nothing is left. The result never contains "_" (cluster and board slugs
 * rely on it: they can never be mistaken for a `c_`/`b_`/`p_` id). Shared by
 * task slugs, project ids and cluster/board slugs.
 */
export function kebabCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
