/**
 * The online→offline sweep (DECISIONS Liveness): every few seconds, agents
 * whose watermark crossed the 5-minute line since the previous tick get one
 * `agent.offline` event. No per-agent timers; liveness itself is always
 * derived at read time, so a missed tick only delays an event.
 */
import type {Logger} from '../lib/log.js'
import {OFFLINE_SWEEP_INTERVAL_MS} from './constants.js'
import {onlineSince} from './records.js'
import type {RegistryStore} from './store/store.js'
import type {RegistryEvents} from './types.js'

export interface OfflineSweep {
  /** Runs one pass; returns the ids announced offline. */
  tick(): Promise<string[]>
  start(): void
  stop(): void
}

export function createOfflineSweep(options: {store: RegistryStore; events: RegistryEvents; clock: () => number; logger: Logger; intervalMs?: number}): OfflineSweep {
  // Agents already offline when the node starts are not announced again.
  let boundary = onlineSince(options.clock())
  let timer: NodeJS.Timeout | undefined
  let running: Promise<string[]> | undefined
  const pass = async () => {
    const next = onlineSince(options.clock())
    if (next <= boundary) return []
    const ids = await options.store.listSeenBetween(boundary, next)
    boundary = next
    for (const id of ids) options.events.publish('agent.offline', id)
    return ids
  }
  const tick = () => {
    // One pass at a time; a slow store must not stack passes.
    running ??= pass().finally(() => {
      running = undefined
    })
    return running
  }
  return {
    tick,
    start() {
      if (timer) return
      timer = setInterval(() => {
        tick().catch((error) => options.logger.warn('offline sweep failed', {error: String(error)}))
      }, options.intervalMs ?? OFFLINE_SWEEP_INTERVAL_MS)
      timer.unref()
    },
    stop() {
      clearInterval(timer)
      timer = undefined
    },
  }
}
