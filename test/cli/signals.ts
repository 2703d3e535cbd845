/**
 * The stop signals delivered in-process: the runner's own SIGINT/SIGTERM
 * listeners set aside, `process.exit` recorded instead of run.
 */
import {vi} from 'vitest'
import {STOP_SIGNALS} from '../../src/cli/stop-signals.js'

export function inProcessSignals() {
  const saved = STOP_SIGNALS.map((name) => [name, process.listeners(name)] as const)
  for (const name of STOP_SIGNALS) process.removeAllListeners(name)
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never)
  return {
    exit,
    send: (name: NodeJS.Signals) => void process.emit(name as 'SIGINT', name),
    /** Listeners left behind by the code under test, then the runner's back. */
    restore() {
      const left = STOP_SIGNALS.reduce((n, name) => n + process.listenerCount(name), 0)
      for (const name of STOP_SIGNALS) process.removeAllListeners(name)
      for (const [name, listeners] of saved) for (const listener of listeners) process.on(name, listener)
      exit.mockRestore()
      return left
    },
  }
}
