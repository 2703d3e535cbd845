/**
 * The browser view of `{site_url}/agent/<id>`: one small HTML page, every
 * value escaped, no script, a strict CSP. The JSON views are the source of
 * truth; this page only shows them.
 */
import type {DirectoryRecord} from '../records.js'
import type {JsonObject} from '../types.js'

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;'}

/** Escapes text for HTML element content and double-quoted attributes. */
export const escapeHtml = (value: unknown) => String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c])

/** Security headers of the page: nothing may load or run. */
export const SITE_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value)

function row(label: string, valueHtml: string) {
  return `<tr><th>${escapeHtml(label)}</th><td>${valueHtml}</td></tr>`
}

function pricingText(pricing: unknown): string | null {
  if (!pricing || typeof pricing !== 'object') return null
  const p = pricing as {amount?: unknown; currency?: unknown; unit?: unknown; network?: unknown}
  if (p.amount === 0 || p.currency === 'free') return 'free'
  return [p.amount, p.currency, p.unit ? `per ${p.unit}` : null, p.network ? `(${p.network})` : null].filter((x) => x !== null && x !== undefined).join(' ')
}

/** The prober's liveness reading in words (docs/search-and-probes.md `live_check`). */
function liveCheckText(record: DirectoryRecord): string {
  const check = record.live_check
  if (!check) return 'not checked yet'
  const verdict = check.ok ? 'live' : 'not live'
  const how = check.source === 'health' ? 'GET /health' : 'availability.now (no /health)'
  return `${verdict} · ${how} · checked ${check.checked_at}`
}

/** When the cached PublicCard was fetched, and the latest failed fetch since. */
function publicCardText(record: DirectoryRecord): string {
  if (!record.card_fetched_at) return record.card_error ? `never fetched · last try ${record.card_error.at}: ${record.card_error.reason}` : 'not fetched yet'
  const fetched = `fetched ${record.card_fetched_at}`
  return record.card_error ? `${fetched} · kept: the fetch at ${record.card_error.at} failed (${record.card_error.reason})` : fetched
}

/** Renders the agent page. */
export function renderAgentPage(record: DirectoryRecord, card: JsonObject): string {
  const title = record.display_name
  const status = record.online ? 'online' : 'offline'
  const link = (url: string) => `<a href="${escapeHtml(url)}" rel="nofollow noopener">${escapeHtml(url)}</a>`
  const rows = [
    row('Agent id', `<code>${escapeHtml(record.agent_id)}</code>`),
    row('Status', `<span class="${status}">${status}</span>${record.last_seen ? ` · last seen ${escapeHtml(record.last_seen)}` : ''}`),
    typeof card.category === 'string' ? row('Category', escapeHtml(card.category)) : '',
    record.capabilities.length ? row('Tags', record.capabilities.map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`).join(' ')) : '',
    record.endpoint ? row('Endpoint', isHttpUrl(record.endpoint) ? link(record.endpoint) : escapeHtml(record.endpoint)) : '',
    pricingText(card.pricing) ? row('Pricing', escapeHtml(pricingText(card.pricing))) : '',
    row('Owner', `${escapeHtml(record.owner_class)}${record.brand ? ` · ${escapeHtml(record.brand)}` : ''}`),
    record.did ? row('Identity', `<code>${escapeHtml(record.did)}</code>${record.verified ? ' (verified key)' : ''}`) : row('Identity', 'no key bound'),
    row('Live check', escapeHtml(liveCheckText(record))),
    row('Operational', record.operational === null ? 'not probed yet' : record.operational ? 'yes' : 'no'),
    record.card_match ? row('Card match', escapeHtml(record.card_match)) : '',
    row('PublicCard', escapeHtml(publicCardText(record))),
  ].join('\n')
  const selfPath = `/agent/${encodeURIComponent(record.agent_id)}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mesh agent</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
h1{margin-bottom:.2rem}.sub{color:#666;margin-top:0}th{text-align:left;padding:.3rem 1rem .3rem 0;color:#555;vertical-align:top}
.online{color:#0a7a32;font-weight:600}.offline{color:#999}.tag{background:#eef;border-radius:4px;padding:0 .4rem}code{font-size:13px;word-break:break-all}
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="sub">${escapeHtml(record.handle)}</p>
${record.description ? `<p>${escapeHtml(record.description)}</p>` : ''}
<table>
${rows}
</table>
<p><a href="${escapeHtml(selfPath)}/.well-known/agent.json">PublicCard (JSON)</a> · request this page with <code>Accept: application/json</code> for the DiscoveryCard</p>
</body>
</html>
`
}
