/**
 * The one signal loop of every `serve`: SIGINT (Ctrl-C) or SIGTERM (a service
 * manager) starts a graceful stop, once; any signal after that exits at once
 * with 1 ("now"), so a stop that hangs can always be cut short. Documented in
 * docs/registry.md, docs/relay.md, docs/agent-serve.md and docs/daemon.md.
 */

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']

export interface StopTrap {
  /** Resolves with the first stop signal. */
  readonly signal: Promise<NodeJS.Signals>
  /** The process is stopping (a signal came, or something else ended it): from now on a signal exits at once. */
  stopping(): void
}

/** Traps the stop signals; call before the start line goes out, so a client that signals as soon as it reads it is handled. */
export function trapStopSignals(): StopTrap {
  let resolve!: (signal: NodeJS.Signals) => void
  const signal = new Promise<NodeJS.Signals>((done) => (resolve = done))
  let stopping = false
  const now = () => process.exit(1)
  const first = (received: NodeJS.Signals) => {
    trap.stopping()
    resolve(received)
  }
  const trap: StopTrap = {
    signal,
    stopping() {
      if (stopping) return
      stopping = true
      for (const name of STOP_SIGNALS) {
        process.off(name, first)
        process.once(name, now)
      }
    },
  }
  for (const name of STOP_SIGNALS) process.once(name, first)
  return trap
}
