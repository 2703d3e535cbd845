/** Records the daemon's events for tests and waits for the ones wanted (a generous timeout, never a timing assertion). */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {EventBus} from '../../../src/daemon/events.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'

export interface EventRecorder {
  events: DaemonEvent<any>[]
  of(type: string): DaemonEvent<any>[]
  /** Resolves with the first recorded event (past or future) that matches. */
  waitFor(match: (event: DaemonEvent<any>) => boolean, what?: string): Promise<DaemonEvent<any>>
  /**
   * Writes a fresh file under `.mesh/docs/` and waits for its `file.changed`:
   * the watcher handles settled changes one at a time in order, so whatever
   * an earlier write caused has been published by then.
   */
  settle(): Promise<void>
  stop(): void
}

export const WAIT_MS = 15_000
let sentinels = 0

export function recordEvents(bus: EventBus, root: string): EventRecorder {
  const events: DaemonEvent<any>[] = []
  const waiters = new Set<{match: (event: DaemonEvent<any>) => boolean; resolve: (event: DaemonEvent<any>) => void}>()
  const stop = bus.subscribe((event) => {
    events.push(event)
    for (const waiter of waiters) {
      if (waiter.match(event)) {
        waiters.delete(waiter)
        waiter.resolve(event)
      }
    }
  })
  const recorder: EventRecorder = {
    events,
    of: (type) => events.filter((event) => event.type === type),
    waitFor(match, what = 'an event') {
      const found = events.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (event: DaemonEvent<any>) => {
            clearTimeout(timer)
            resolve(event)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(new Error(`no ${what} within ${WAIT_MS} ms; got ${JSON.stringify(events.map((event) => [event.type, event.data]))}`))
        }, WAIT_MS)
        waiters.add(waiter)
      })
    },
    async settle() {
      const name = `sentinel-${process.pid}-${++sentinels}.md`
      writeFileSync(join(root, '.mesh', 'docs', name), 'x\n')
      await recorder.waitFor((event) => event.type === 'file.changed' && event.data.path === `.mesh/docs/${name}`, `file.changed for ${name}`)
    },
    stop,
  }
  return recorder
}

/** Polls until `check` is true (a generous timeout, for state that has no event). */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
