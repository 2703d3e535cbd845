/** The site's numbers and names, in one place. */

/** Static files are served under this prefix (assets.ts). */
export const SITE_ASSET_PREFIX = '/site/'

/**
 * The pages' Content-Security-Policy: only this origin's own stylesheets,
 * scripts, images and event streams; no inline script or style, no plugin,
 * no form posting elsewhere, no framing.
 */
export const SITE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // live.js runs itself as a SharedWorker: one event stream for all the site's tabs of a browser.
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers of every page and asset. */
export const SITE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': SITE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

/** Pages are rendered per request; a browser may keep them briefly. */
export const PAGE_CACHE_CONTROL = 'no-cache'

export {ASSET_CACHE_CONTROL} from '../../http/static-assets.js'

/** The site's one event stream per browser, every live area's events in one connection (live/). */
export const SITE_STREAM_PATH = '/site/events'

/** Event streams open at once on one node per area (`/network/events`, `/clusters/events`, each counting `/site/events` too); more are told to retry. */
export const MAX_EVENT_STREAMS = 1000

/** A comment line on every open stream this often, so proxies keep it open. */
export const STREAM_KEEPALIVE_MS = 25_000

/** How long a disconnected browser waits before reconnecting (the stream's `retry:` field). */
export const STREAM_RETRY_MS = 3000

/** Display limits: long card text is clipped on the page (the JSON views keep it whole). */
export const CLIP = {
  name: 120,
  short: 300,
  description: 2000,
  schema: 8000,
} as const
