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

/** One socket the daemon may join: the endpoint, or `transport.fallback`. */
export interface TransportSocket {
  /** The socket URL with `agent`, `vis` and `token`: secret, never logged. */
  url: string
  /** The URL without query, fragment or user info: what logs and /health show. */
  endpoint: string
  clusterId: string
  /** The cluster token sent, if any (for scrubbing messages). */
  token: string | null
}

export type TransportTarget =
  | (TransportSocket & {
      kind: 'connect'
      handle: string
      /** `transport.fallback`, tried when the endpoint fails (docs/daemon.md, Transport); null when none is usable. */
      fallback: TransportSocket | null
      /** Things worth one debug line (an unreadable invite file, an unusable fallback). */
      notes: string[]
    })
  /** `unlinked`: the project has no cluster yet (calm: `mesh cluster link`); `skipped`: cluster.yaml names nothing the daemon can join (a /health warning). */
  | {kind: 'off' | 'skipped' | 'unlinked'; reason: string; endpoint: string | null}

/** What /health says of a project with no cluster yet: one calm line, not a warning. */
export const NOT_LINKED = 'not linked: `mesh cluster link`'

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
  /** Whether mesh.json has a `cluster` block (`mesh cluster link` wrote it); default true. */
  linked?: boolean
  /** A socket given by the process that runs the daemon (`mesh up`'s embedded relay), in place of cluster.yaml's. */
  override?: {endpoint: string; token: string | null} | null
}

/**
 * The endpoint `mesh init` writes before any link: the hub's socket named
 * after the project id (`…/clusters/<id>/ws`). Relay ids are `c_…` (a project
 * id has no `_`), so that path names no cluster of ours — only a public slug a
 * stranger could have taken (issue 23) — and the daemon does not dial it.
 */
function isInitPlaceholder(url: URL, projectId: string | null): boolean {
  const socket = CLUSTER_SOCKET_PATH.exec(url.pathname)
  return socket !== null && projectId !== null && socket[1] === projectId
}

interface RawSocket {
  url: URL
  endpoint: string
  clusterId: string
}
type SocketOrSkip = {socket: RawSocket} | {skip: string}

/** A URL of cluster.yaml as a member socket: ws(s) as written, http(s) only for a relay cluster socket path. */
function socketOf(raw: string, name: string, fallbackId: string): SocketOrSkip {
  const shown = shownEndpoint(raw)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return {skip: `${name} ${shown} is not a URL`}
  }
  const socketPath = CLUSTER_SOCKET_PATH.exec(url.pathname)
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    // An http(s) address of a relay's cluster socket is the same socket; any other http(s) URL is not a WebSocket.
    if (!socketPath) return {skip: `${name} ${shown} is ${url.protocol.slice(0, -1)}, not a ws:// or wss:// URL nor a relay cluster socket (/v1/clusters/<id>/ws)`}
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  } else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    return {skip: `${name} ${shown} is ${url.protocol.slice(0, -1)}, not a ws:// or wss:// URL`}
  }
  let clusterId = fallbackId
  if (socketPath) {
    try {
      clusterId = decodeURIComponent(socketPath[1])
    } catch {
      clusterId = socketPath[1]
    }
  }
  url.hash = ''
  return {socket: {url, endpoint: shownUrl(url), clusterId}}
}

/** The socket with the daemon's query: its handle, ghost, and the token when there is one. */
function joined(socket: RawSocket, handle: string, token: string | null): TransportSocket {
  const url = new URL(socket.url)
  url.searchParams.set('agent', handle)
  url.searchParams.set('vis', DAEMON_VIS)
  if (token) url.searchParams.set('token', token)
  return {url: url.toString(), endpoint: socket.endpoint, clusterId: socket.clusterId, token: token ?? url.searchParams.get('token')}
}

export async function resolveTarget(options: ResolveOptions): Promise<TransportTarget> {
  const {workflow, endpoint: raw, fallback: rawFallback} = options.settings.transport
  const envValue = options.env[TRANSPORT_ENV]?.trim().toLowerCase()
  const handle = `${HANDLE_PREFIX}${options.settings.id ?? 'project'}`
  const projectCluster = options.settings.id ?? 'cluster'
  if (envValue && (TRANSPORT_OFF_VALUES as readonly string[]).includes(envValue)) {
    return {kind: 'off', reason: `${TRANSPORT_ENV}=${envValue}: the daemon does not connect to the project's transport`, endpoint: raw ? shownEndpoint(raw) : null}
  }
  if (options.override) {
    const given = socketOf(options.override.endpoint, 'the embedded relay', projectCluster)
    if ('skip' in given) return {kind: 'skipped', reason: given.skip, endpoint: shownEndpoint(options.override.endpoint)}
    return {kind: 'connect', ...joined(given.socket, handle, options.override.token), handle, fallback: null, notes: []}
  }
  const shown = raw ? shownEndpoint(raw) : null
  if (workflow !== 'websocket') {
    return {kind: 'skipped', reason: `transport.workflow is ${workflow}; the daemon connects only to websocket transports (mesh validate refuses it)`, endpoint: shown}
  }
  if (!raw) return {kind: 'skipped', reason: 'cluster.yaml has no transport.endpoint', endpoint: null}
  const primary = socketOf(raw, 'transport.endpoint', projectCluster)
  if ('skip' in primary) return {kind: 'skipped', reason: primary.skip, endpoint: shown}
  if (options.linked === false && isInitPlaceholder(primary.socket.url, options.settings.id)) return {kind: 'unlinked', reason: NOT_LINKED, endpoint: shown}
  const invite = await readInviteToken(options.invitePath)
  const notes = invite.problem ? [invite.problem] : []
  let fallback: TransportSocket | null = null
  if (rawFallback) {
    const second = socketOf(rawFallback, 'transport.fallback', projectCluster)
    if ('skip' in second) notes.push(`${second.skip}; the fallback is not used`)
    // The invite's token goes only to the same cluster: a fallback naming another one never receives it.
    else fallback = joined(second.socket, handle, second.socket.clusterId === primary.socket.clusterId ? invite.token : null)
  }
  return {kind: 'connect', ...joined(primary.socket, handle, invite.token), handle, fallback, notes}
}

/** Whether mesh.json at the project root has a `cluster` block (what `mesh cluster link` writes). */
export async function readLinked(root: string): Promise<boolean> {
  try {
    const text = await readContainedFile(root, 'mesh.json', {maxBytes: 1024 * 1024})
    if (text === null) return false
    const cluster = (JSON.parse(text.toString('utf8')) as {cluster?: unknown}).cluster
    return typeof cluster === 'object' && cluster !== null
  } catch {
    return false
  }
}
