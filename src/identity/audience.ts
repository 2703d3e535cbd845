/**
 * The audience of a Mesh-Sig v2 signature (issue 18): the scheme and
 * authority a request is addressed to, in one canonical form both ends
 * compute the same way — lowercase `scheme://host[:port]`, the default port
 * dropped, IPv6 in brackets, no path, no trailing slash, no user info.
 * A signer names it; a server compares it with its own public URL's.
 */
import {invalid} from '../lib/errors.js'
import {AUDIENCE_SCHEMES} from './constants.js'

/**
 * The canonical audience of a URL (only its origin counts: path, query and
 * fragment are dropped). Throws a 400 MeshError `invalid_audience` for what
 * cannot address a mesh server: not a URL, a scheme other than http(s), or a
 * URL carrying a user name or password (never signed, never compared).
 */
export function normalizeAudience(url: string | URL): string {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : url
  } catch {
    throw invalid('invalid_audience', `${JSON.stringify(String(url).slice(0, 200))} is not a URL`)
  }
  if (!AUDIENCE_SCHEMES.includes(parsed.protocol)) throw invalid('invalid_audience', `An audience is an http(s) URL, not ${parsed.protocol}`)
  if (parsed.username || parsed.password) throw invalid('invalid_audience', 'An audience must not carry a user name or password')
  if (!parsed.hostname) throw invalid('invalid_audience', 'An audience needs a host')
  // WHATWG URL lowercases the scheme and host, drops the scheme's default port and brackets IPv6: its origin is the canonical form.
  return parsed.origin
}

/** normalizeAudience, or null for what cannot be an audience (a Host header a client made up). */
export function audienceOrNull(url: string | URL): string | null {
  try {
    return normalizeAudience(url)
  } catch {
    return null
  }
}

/**
 * The audience a request was addressed to, from the protocol and host the
 * server sees (Koa's ctx.protocol and ctx.host: the Host header, or
 * X-Forwarded-Proto/Host when the app trusts its proxy); null when the
 * host is missing or not a host.
 */
export function requestAudience(protocol: string, host: string): string | null {
  if (!host || /[/\\@?#\s]/.test(host)) return null
  return audienceOrNull(`${protocol}://${host}`)
}
