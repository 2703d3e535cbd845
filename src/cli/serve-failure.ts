/**
 * The words for a server that could not start, one set for every `serve`
 * (`mesh serve registry`, `mesh serve relay`, `mesh agent serve`, `mesh
 * serve`, `mesh up`): `listen_failed` for the port or the address, in one
 * sentence naming the port flag; `<service>_start_failed` naming the backend
 * at fault (PostgreSQL, NATS, SQLite), never with the password of a URL.
 */
import {MeshError} from '../lib/errors.js'
import {hostOf} from './serve-checks.js'

/** Where a server listens, as its command was told. */
export interface ListenTarget {
  /** The server's name in the sentence: registry, relay, agent, daemon. */
  service: string
  host: string
  /** The port asked for (0: any free one). */
  port: number
  /** The flag that sets the port, named when it is taken: --port, --registry-port, --daemon-port. */
  portFlag: string
}

/** The database and bus a server opens, to name the one at fault. */
export interface Backends {
  dataDir: string
  databaseUrl?: string
  natsUrl?: string
}

/** Node's error for a socket that could not be bound (`listen EADDRINUSE …`). */
export function isListenError(error: unknown): error is NodeJS.ErrnoException & {port?: number} {
  const e = error as NodeJS.ErrnoException | undefined
  return e?.syscall === 'listen' || e?.code === 'EADDRINUSE'
}

/** The one listen failure: `listen_failed`, the address and why, the same sentence for every server. Null for another error. */
export function listenFailure(error: unknown, target: ListenTarget): MeshError | null {
  if (!isListenError(error)) return null
  // Node's error carries the port it tried (the one picked for port 0).
  const port = error.port || target.port
  const why =
    error.code === 'EADDRINUSE' ? `port ${port} is already in use; pass another ${target.portFlag} (0 picks a free one)`
    : error.code === 'EACCES' ? `no permission to bind port ${port}`
    : error.code === 'EADDRNOTAVAIL' ? 'no interface of this machine has that address; check --host'
    : (error.code ?? error.message)
  return new MeshError('unavailable', 'listen_failed', `The ${target.service} could not listen on ${target.host}:${port}: ${why}`, {cause: error})
}

// The errors the nats client throws while connecting (@nats-io/nats-core errors.ts), by name: importing the
// classes to test instanceof would load the client for every serve, and it is loaded only with --nats.
const NATS_CONNECT_ERRORS = new Set(['ConnectionError', 'AuthorizationError', 'UserAuthenticationExpiredError', 'ProtocolError', 'TimeoutError'])

/** Which backend a start error came from, for the message: "PostgreSQL at db:5432", "NATS at nats:4222", "SQLite in <dir>". */
export function failedBackend(error: unknown, config: Backends): string | null {
  const e = error as {name?: string; code?: string; severity?: unknown; hostname?: string; address?: string; port?: number}
  const network = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].includes(e.code ?? '') || error instanceof AggregateError
  const hostOfError = e.hostname ?? (e.address ? `${e.address}${e.port ? `:${e.port}` : ''}` : undefined)
  const matches = (url?: string) => url && hostOfError && (hostOf(url) === hostOfError || new URL(url).hostname === hostOfError)
  if (config.natsUrl && (NATS_CONNECT_ERRORS.has(e.name ?? '') || matches(config.natsUrl))) return `NATS at ${hostOf(config.natsUrl)} (--nats)`
  if (config.databaseUrl && (e.severity !== undefined || matches(config.databaseUrl) || (network && !config.natsUrl))) return `PostgreSQL at ${hostOf(config.databaseUrl)} (--database-url)`
  if (!config.databaseUrl && e.name === 'SqliteError') return `SQLite in ${config.dataDir}`
  return null
}

/** The passwords of the given URLs (a NATS flag may list several), raw and decoded, to mask in messages. */
function passwordsOf(...urls: Array<string | undefined>): string[] {
  const found: string[] = []
  for (const url of urls.flatMap((u) => (u ? u.split(',') : []))) {
    try {
      const password = new URL(url.trim()).password
      if (password) found.push(password, decodeURIComponent(password))
    } catch {
      // Checked before start: an unparsable URL never got this far.
    }
  }
  return found.filter((p) => p.length > 0)
}

/** What a failed start is told about the server. */
export interface StartedAs {
  /** The server's name in the sentence: registry, relay, agent, daemon. */
  service: string
  /** Where it listens; absent when the start names its own listen failures (`mesh up` has two listeners). */
  listen?: Omit<ListenTarget, 'service'>
  /** The database and bus it opens (operators' servers). */
  backends?: Backends
}

/**
 * The error a server gives when it cannot start: the listen failure, else,
 * for a server with backends, `<service>_start_failed` naming the backend at
 * fault. A MeshError passes unchanged, and so does any error of a server
 * without backends (its own code names it).
 */
export function startFailure(error: unknown, server: StartedAs): unknown {
  if (error instanceof MeshError) return error
  const listen = server.listen ? listenFailure(error, {service: server.service, ...server.listen}) : null
  if (listen) return listen
  const {backends, service} = server
  if (!backends) return error
  const e = error as {message?: string; code?: string}
  const backend = failedBackend(error, backends)
  // An AggregateError (every address of a host refused) has an empty message, so fall back to its code.
  let why = String(e?.message || e?.code || error)
  // The known passwords first (one may hold an @), then any user:password@ of a URL the driver prints.
  for (const password of passwordsOf(backends.databaseUrl, backends.natsUrl)) why = why.split(password).join('***')
  why = why.replace(/\/\/[^@\s]*@/g, '//***@')
  return new MeshError('unavailable', `${service}_start_failed`, `The ${service} could not start: ${backend ? `${backend}: ` : ''}${why}`)
}
