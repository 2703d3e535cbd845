/**
 * The one process edge of every `serve` (`mesh serve registry`, `mesh serve
 * relay`, `mesh agent serve`, `mesh serve`, `mesh up`): start the server and
 * turn a failed start into the shared failure words (serve-failure.ts), trap
 * the stop signals before the start line goes out, run until a signal (or
 * the server's background work gives up), stop once, say so, exit. Each
 * command supplies only its start, its start line and its stop line.
 */
import type {Logger} from '../lib/log.js'
import {startFailure, type StartedAs} from './serve-failure.js'
import {trapStopSignals} from './stop-signals.js'

export interface ServerProcess {
  /** Closes what the start opened (sockets get `server_shutdown`); called once. */
  stop(): Promise<void>
}

export interface ServeProcessOptions<S extends ServerProcess> {
  /** The server's name, where it listens and what it opens: the words of a failed start. */
  server: StartedAs
  logger: Logger
  /** Opens what the server needs and listens; any throw is a failed start. */
  start(): Promise<S>
  /** Prints the start line; the stop signals are trapped already. */
  announce(server: S): void | Promise<void>
  /** Background work that may end the process: rejects with the reason (it is thrown after the stop). */
  background?(server: S): Promise<never>
  /** Prints the stop line after a clean stop on `signal`. */
  stopped(signal: NodeJS.Signals): void
}

/** Runs the server until SIGINT or SIGTERM, then exits the process (0 after a clean stop, 1 when the stop failed). */
export async function serveProcess<S extends ServerProcess>(options: ServeProcessOptions<S>): Promise<never> {
  const {logger} = options
  let server: S
  try {
    server = await options.start()
  } catch (error) {
    throw startFailure(error, options.server)
  }
  const trap = trapStopSignals()
  try {
    await options.announce(server)
  } catch (error) {
    trap.stopping()
    await server.stop().catch(() => {})
    throw error
  }
  const failed = options.background?.(server) ?? new Promise<never>(() => {})
  const ended = await Promise.race([trap.signal.then((signal) => ({signal})), failed.catch((error: unknown) => ({error}))])
  trap.stopping()
  logger.info('stopping', 'signal' in ended ? {signal: ended.signal} : {})
  try {
    await server.stop()
  } catch (error) {
    logger.error('stop failed', {error: String((error as Error)?.message ?? error)})
    process.exit(1)
  }
  if ('error' in ended) throw ended.error
  logger.info('stopped')
  options.stopped(ended.signal)
  // Everything is closed; exit now rather than wait on idle sockets of clients or a call in flight.
  process.exit(0)
}
