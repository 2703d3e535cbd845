/**
 * The daemon's perimeter (DECISIONS: Daemon auth; docs/daemon.md, Safety):
 * every request whose Host or Origin is not loopback is refused, so a web page
 * on another site cannot reach the daemon through DNS rebinding; a request
 * that names a project (X-Mesh-Project) must name this one; write routes and
 * /events need the portal token. The checks work on the raw request so the
 * WebSocket upgrade runs the same ones as the HTTP routes.
 */
import type {IncomingMessage} from 'node:http'
import {forbidden, unauthorized} from '../../lib/errors.js'
import {PROJECT_HEADER} from '../constants.js'
import {bearerToken} from '../../http/bearer.js'
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
