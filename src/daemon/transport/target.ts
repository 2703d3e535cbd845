/**
 * What the daemon connects to, decided from cluster.yaml `transport`, the
 * environment and the private invite: the member socket URL (with the token,
 * never shown), the endpoint as it may be shown (no query, no user info),
 * or why there is nothing to connect to. docs/daemon.md, Transport.
 */
import {basename, dirname} from 'node:path'
import {isPathRefused, readContainedFile} from '../../lib/contained-files.js'
import type {DaemonSettings} from '../settings.js'
import {CLUSTER_SOCKET_PATH, DAEMON_VIS, HANDLE_PREFIX, INVITE_MAX_BYTES, TRANSPORT_ENV, TRANSPORT_OFF_VALUES} from './constants.js'

export type TransportTarget =
  | {
      kind: 'connect'
      /** The socket URL with `agent`, `vis` and `token`: secret, never logged. */
      url: string
      /** The endpoint without query, fragment or user info: what logs and /health show. */
      endpoint: string
      clusterId: string
      handle: string
      /** The cluster token, when the invite had one (for scrubbing messages). */
      token: string | null
      /** Things worth one debug line (an unreadable invite file). */
      notes: string[]
    }
  | {kind: 'off' | 'skipped'; reason: string; endpoint: string | null}

/** A URL as it may be shown: scheme, host, port and path only. */
export function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`
}

/** The endpoint as it may be shown, or the raw text cut at its query when it is no URL. */
function shownEndpoint(raw: string): string {
  try {
    return shownUrl(new URL(raw))
  } catch {
    return raw.replace(/[?#].*$/s, '').replace(/\/\/[^/@]*@/, '//')
  }
}

export interface InviteToken {
  token: string | null
  problem?: string
}

/** The `token` query of `.mesh/credentials/invite.url` (first non-empty line), if any. */
export async function readInviteToken(path: string): Promise<InviteToken> {
  let text: string
  try {
    // Never through a link (issue 18): a linked invite is refused like an unreadable one.
    const bytes = await readContainedFile(dirname(path), basename(path), {maxBytes: INVITE_MAX_BYTES})
    if (bytes === null) return {token: null}
    text = bytes.toString('utf8')
  } catch (error) {
    if (isPathRefused(error)) return {token: null, problem: `credentials/invite.url is ${String(error.details?.reason)}, not read (the daemon follows no link); connecting without a token`}
    const code = (error as NodeJS.ErrnoException).code
    return {token: null, problem: `credentials/invite.url could not be read (${code ?? 'error'}); connecting without a token`}
  }
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0)
  if (!line) return {token: null}
  try {
    const token = new URL(line).searchParams.get('token')
    return token ? {token} : {token: null, problem: 'credentials/invite.url has no token query; connecting without a token'}
  } catch {
    return {token: null, problem: 'credentials/invite.url is not a URL; connecting without a token'}
  }
}

export interface ResolveOptions {
  settings: DaemonSettings
  env: NodeJS.ProcessEnv
  /** Path of `.mesh/credentials/invite.url`. */
  invitePath: string
}

export async function resolveTarget(options: ResolveOptions): Promise<TransportTarget> {
  const {workflow, endpoint: raw} = options.settings.transport
  const envValue = options.env[TRANSPORT_ENV]?.trim().toLowerCase()
  const shown = raw ? shownEndpoint(raw) : null
  if (envValue && (TRANSPORT_OFF_VALUES as readonly string[]).includes(envValue)) {
    return {kind: 'off', reason: `${TRANSPORT_ENV}=${envValue}: the daemon does not connect to the project's transport`, endpoint: shown}
  }
  if (workflow !== 'websocket') {
    return {kind: 'skipped', reason: `transport.workflow is ${workflow}; the daemon connects only to websocket transports`, endpoint: shown}
  }
  if (!raw) return {kind: 'skipped', reason: 'cluster.yaml has no transport.endpoint', endpoint: null}
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return {kind: 'skipped', reason: `transport.endpoint ${shown} is not a URL`, endpoint: shown}
  }
  const socketPath = CLUSTER_SOCKET_PATH.exec(url.pathname)
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    // An http(s) address of a relay's cluster socket is the same socket; any other http(s) URL is not a WebSocket.
    if (!socketPath) return {kind: 'skipped', reason: `transport.endpoint ${shown} is ${url.protocol.slice(0, -1)}, not a ws:// or wss:// URL nor a relay cluster socket (/v1/clusters/<id>/ws)`, endpoint: shown}
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  } else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    return {kind: 'skipped', reason: `transport.endpoint ${shown} is ${url.protocol.slice(0, -1)}, not a ws:// or wss:// URL`, endpoint: shown}
  }
  let clusterId = options.settings.id ?? 'cluster'
  if (socketPath) {
    try {
      clusterId = decodeURIComponent(socketPath[1])
    } catch {
      clusterId = socketPath[1]
    }
  }
  const handle = `${HANDLE_PREFIX}${options.settings.id ?? 'project'}`
  const invite = await readInviteToken(options.invitePath)
  url.hash = ''
  url.searchParams.set('agent', handle)
  url.searchParams.set('vis', DAEMON_VIS)
  if (invite.token) url.searchParams.set('token', invite.token)
  return {
    kind: 'connect',
    url: url.toString(),
    endpoint: shownUrl(url),
    clusterId,
    handle,
    token: invite.token ?? url.searchParams.get('token'),
    notes: invite.problem ? [invite.problem] : [],
  }
}
