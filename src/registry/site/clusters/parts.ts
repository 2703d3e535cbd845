/** Pieces both clusters pages show the same way. */
import type {ClusterWhere} from '../../../cluster/types.js'
import {html, type Html} from '../html.js'

/** Slugs that name the area's own routes rather than a cluster (a cluster named "Events" is linked by id). */
const RESERVED_SLUGS = new Set(['events'])

/** The page of a cluster: by slug when it has one, else by id. */
export const clusterHref = (cluster: {id: string; slug: string | null}) =>
  `/clusters/${encodeURIComponent(cluster.slug && !RESERVED_SLUGS.has(cluster.slug) ? cluster.slug : cluster.id)}`

export const clusterName = (cluster: {name: string | null}) => cluster.name ?? 'Unnamed cluster'

/** A place as people read it: its label, else its coordinates. */
export function whereText(where: ClusterWhere): string {
  if (where.label && where.label.trim()) return where.label
  return `${where.lat.toFixed(2)}, ${where.lon.toFixed(2)}`
}

/** The online count with the hook clusters.js moves live (`data-cluster-id`, `data-online`). */
export function onlineCount(clusterId: string, online: number): Html {
  return html`<span class="online-count${online > 0 ? ' active' : ''}" data-cluster-id="${clusterId}" data-online="${online}"><span class="dot" aria-hidden="true"></span><span class="n">${online}</span> online</span>`
}

// What one character costs once escaped (html.ts escapeText) — up to six bytes for `"`.
const ESCAPED_BYTES: Record<string, number> = {'&': 5, '<': 4, '>': 4, '"': 6, "'": 5, '`': 5}
const ELLIPSIS_BYTES = 3

/**
 * Like `clip`, and also cut so the escaped text stays within `maxBytes`: a
 * page of 50 catalog rows stays small even when every character of a
 * hostile name or topic escapes to an entity.
 */
export function clipEscaped(text: string, maxChars: number, maxBytes: number): string {
  let bytes = 0
  let chars = 0
  for (const char of text) {
    bytes += ESCAPED_BYTES[char] ?? Buffer.byteLength(char)
    chars += 1
    if (chars > maxChars || bytes > maxBytes) return cut(text, maxChars - 1, maxBytes - ELLIPSIS_BYTES)
  }
  return text
}

/** The longest start of `text` within both limits, with an ellipsis. */
function cut(text: string, maxChars: number, maxBytes: number): string {
  let bytes = 0
  let out = ''
  let chars = 0
  for (const char of text) {
    const cost = ESCAPED_BYTES[char] ?? Buffer.byteLength(char)
    if (chars + 1 > maxChars || bytes + cost > maxBytes) break
    bytes += cost
    chars += 1
    out += char
  }
  return `${out}…`
}
