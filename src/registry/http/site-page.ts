/**
 * Escaping and headers of the core's small HTML answers (the standard's
 * `/resources` page). The agent page moved into the site part
 * (src/registry/site/agent/).
 */

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;'}

/** Escapes text for HTML element content and double-quoted attributes. */
export const escapeHtml = (value: unknown) => String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c])

/** Security headers of the page: nothing may load or run. */
export const SITE_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}
