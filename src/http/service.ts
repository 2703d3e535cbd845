import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import type {Middleware} from 'koa'

/**
 * What every network service of mesh (registry, relay, daemon) hands to the
 * host that serves it. Several services can share one HTTP server: the
 * registry server also serves the relay's routes.
 */
export interface MeshService {
  /** Name used in logs, e.g. "registry". */
  readonly name: string
  /** Koa middleware for this service's routes; calls next() for paths it does not own. */
  readonly middleware: Middleware
  /**
   * Takes a WebSocket upgrade when the path belongs to this service and
   * returns true; returns false to let another service try. Refusals (401,
   * 404) are written on the socket before any upgrade happens.
   */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** Starts background work (sweeps, probes). Called once the server listens. */
  start?(): Promise<void> | void
  /** Stops background work, tells open sockets, releases the store. */
  close(reason?: 'server_shutdown'): Promise<void>
}
