/** The IDE area's names and numbers, in one place (docs/ide.md). */

/** Static files (scripts, stylesheets) are served under this prefix, by their hashed names. */
export const IDE_ASSET_PREFIX = '/ide/assets/'

/**
 * The IDE pages' Content-Security-Policy: only the daemon's own scripts,
 * stylesheets and connections (its routes and the /events socket: 'self'
 * covers ws: on the same host and port); no inline script or style, no
 * plugin, no form posting elsewhere, no framing, no <base>.
 */
export const IDE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers of every IDE page and asset. */
export const IDE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': IDE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

/** Pages carry the session's CSRF token: never stored by a cache. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {...IDE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'}

/** The debug stream's tag for logins (never the code or the cookie). */
export const LOGIN_TAG = 'ide.login'
