/**
 * The daemon's perimeter (DECISIONS: Daemon auth; docs/daemon.md, Safety):
 * every request whose Host or Origin is not loopback is refused, so a web page
 * on another site cannot reach the daemon through DNS rebinding; a request
 * that names a project (X-Mesh-Project) must name this one; write routes and
 * /events need the operator: the portal token, or the IDE's browser session
 * with its CSRF token from the daemon's own page (docs/ide.md, Security). The
 * checks work on the raw request so the WebSocket upgrade runs the same ones
 * as the HTTP routes.
 */
import type {IncomingMessage} from 'node:http'
import {forbidden, unauthorized} from '../../lib/errors.js'
import {PROJECT_HEADER} from '../constants.js'
import {bearerToken} from '../../http/bearer.js'
import {readCookie, sessionCookieName, type BrowserSession, type BrowserSessions} from '../browser-sessions.js'
import {tokenMatches} from '../portal-token.js'

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/** The host name of a `Host` value or an origin, without port; null when it does not parse. */
function hostNameOf(value: string): string | null {
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`)
    return url.hostname
  } catch {
    return null
  }
}

/** Loopback names only: 127.0.0.0/8 would also do, but a browser page never names those by accident. */
const isLoopbackName = (name: string | null) => name !== null && (LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name))

/** Throws 403 `host_not_loopback` / `origin_not_loopback` unless both name this machine. */
export function assertLoopbackRequest(request: IncomingMessage): void {
  const host = request.headers.host
  if (!host || !isLoopbackName(hostNameOf(host))) {
    throw forbidden('host_not_loopback', 'The daemon answers only requests addressed to 127.0.0.1 or localhost')
  }
  const origin = request.headers.origin
  // `Origin: null` comes from sandboxed frames and file pages: not this machine's pages either.
  if (origin !== undefined && (origin === 'null' || !/^https?:\/\//i.test(origin) || !isLoopbackName(hostNameOf(origin)))) {
    throw forbidden('origin_not_loopback', 'The daemon answers only pages served from 127.0.0.1 or localhost')
  }
}

/** Throws 403 `project_mismatch` when X-Mesh-Project names another project. */
export function assertProject(request: IncomingMessage, projectId: string | null): void {
  const named = request.headers[PROJECT_HEADER]
  if (named === undefined) return
  const value = Array.isArray(named) ? named[0] : named
  if (value !== projectId) {
    throw forbidden('project_mismatch', `X-Mesh-Project names "${value}", but this daemon serves ${projectId === null ? 'a project without an id' : `"${projectId}"`}`)
  }
}

/** The Bearer token of an Authorization header (scheme case-insensitive), or undefined. */
export function bearerOf(request: IncomingMessage): string | undefined {
  return bearerToken(request.headers.authorization)
}

/** Throws 401 unless `presented` is the portal token. */
export function assertPortalToken(presented: string | undefined, portalToken: string): void {
  if (!presented) throw unauthorized('portal_token_required', 'This route needs the portal token: Authorization: Bearer <token> (`mesh daemon token` prints it)')
  if (!tokenMatches(presented, portalToken)) throw unauthorized('invalid_portal_token', 'The portal token is wrong; `mesh daemon token` prints the current one')
}

type Headers = Record<string, string | string[] | undefined>

/** The IDE session cookie's value in these headers (the name depends on the Host's port), or undefined. */
export const sessionCookieOf = (headers: Headers) => readCookie(headers.cookie, sessionCookieName(typeof headers.host === 'string' ? headers.host : undefined))

/** The IDE session the request's cookie names, or null (no cookie, or one this daemon run does not know). */
export const sessionOf = (headers: Headers, sessions: BrowserSessions): BrowserSession | null => sessions.find(sessionCookieOf(headers))

/**
 * Throws 403 `cross_origin_refused` unless the request comes from a page of
 * this daemon's own origin. The loopback check lets any local page through
 * (another server on 127.0.0.1 is "same site", and SameSite cookies go to
 * it too): a session is good only from the daemon's own pages, by `Origin`
 * and by the browser's `Sec-Fetch-Site` whenever they are sent.
 */
export function assertSameOrigin(request: IncomingMessage): void {
  const {origin, host} = request.headers
  const site = request.headers['sec-fetch-site']
  if ((origin !== undefined && origin.toLowerCase() !== `http://${host ?? ''}`.toLowerCase()) || (site !== undefined && site !== 'same-origin')) {
    throw forbidden('cross_origin_refused', 'The IDE session works only from the daemon\'s own pages')
  }
}

/**
 * Throws unless the caller is the operator: the portal token when an
 * Authorization header is sent, else the IDE's session cookie sent from
 * the daemon's own origin with the session's CSRF token (`csrf`: the
 * X-Mesh-CSRF header, or the `csrf` parameter of the /events upgrade).
 */
export function assertOperator(request: IncomingMessage, guard: {portalToken: string; sessions: BrowserSessions}, csrf: string | undefined, bearer = bearerOf(request)): void {
  const cookie = sessionCookieOf(request.headers)
  if (bearer !== undefined || cookie === undefined) return assertPortalToken(bearer, guard.portalToken)
  const session = guard.sessions.find(cookie)
  if (!session) throw unauthorized('session_expired', 'This IDE session is not known to the daemon (it was restarted, or you logged out): run `mesh open` for a new one')
  assertSameOrigin(request)
  if (!guard.sessions.csrfMatches(session, csrf)) throw forbidden('csrf_token_invalid', 'A call with the IDE session needs its CSRF token (X-Mesh-CSRF)')
}
