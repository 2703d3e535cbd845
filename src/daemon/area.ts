import type {Route} from './route-table.js'

/** One area of the daemon: its routes, and optional background work and health warnings. */
export interface DaemonArea {
  name: string
  routes: Route[]
  start?(): Promise<void> | void
  close?(): Promise<void> | void
  /** Warnings for /health (and `mesh serve`'s start line), read at each call. */
  warnings?(): string[] | Promise<string[]>
  /** Fields of its own for the /health answer (e.g. `transport`), read at each call; core fields win a clash. */
  health?(): Record<string, unknown>
}
