/**
 * What the daemon counts of its own work, in plain numbers: prom-client
 * takes half a second to load, so the daemon loads it only at the first
 * scrape of `GET /metrics` (routes.ts) and counts until then here — turn
 * finals (by status, with their duration and reported cost) and watcher
 * events (by type). Turns running and waiting and `/events` subscribers are
 * read at scrape time. docs/operating.md, The daemon's metrics.
 */
import {FILE_EVENT_TYPES} from '../../protocol/watch.js'
import type {Engine} from '../chat/engine.js'
import type {DaemonContext} from '../context.js'

/** Turn durations kept for a first scrape; later ones go straight to the histogram. */
const MAX_UNSCRAPED_DURATIONS = 10_000

const WATCHER_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(FILE_EVENT_TYPES))

export interface FinishedTurn {
  status: 'done' | 'failed'
  seconds: number
  costUsd: number | null
}

export interface DaemonWork {
  /** Turns running and waiting now; null without a chat area. */
  load(): {running: number; waiting: number} | null
  /** Sockets subscribed to `/events` now. */
  eventSubscribers(): number
  /** Watcher events published since start, by event type. */
  readonly watcherEvents: ReadonlyMap<string, number>
  /** Cost the clients reported, in US dollars, since start. */
  readonly costUsd: number
  /**
   * Hands every finished turn to `observe` — those finished so far at once,
   * later ones as they finish (the histogram of routes.ts, once it exists).
   */
  observeTurns(observe: (turn: FinishedTurn) => void): void
  close(): void
}

export function createDaemonWork(context: DaemonContext, sources: {engine?: Engine; eventSubscribers(): number}): DaemonWork {
  const watcherEvents = new Map<string, number>()
  let costUsd = 0
  let unscraped: FinishedTurn[] | null = []
  let observer: ((turn: FinishedTurn) => void) | undefined
  const unsubscribe = context.events.subscribe((event) => {
    if (WATCHER_EVENT_TYPES.has(event.type)) watcherEvents.set(event.type, (watcherEvents.get(event.type) ?? 0) + 1)
  })
  const removeHook = sources.engine?.onFinal((final) => {
    const cost = final.usage?.cost_usd ?? null
    if (cost !== null && Number.isFinite(cost)) costUsd += cost
    const turn: FinishedTurn = {status: final.status, seconds: (final.usage?.duration_ms ?? Date.parse(final.finished_at) - Date.parse(final.started_at)) / 1000, costUsd: cost}
    if (observer) observer(turn)
    else if (unscraped && unscraped.length < MAX_UNSCRAPED_DURATIONS) unscraped.push(turn)
  })
  return {
    load: () => sources.engine?.load() ?? null,
    eventSubscribers: sources.eventSubscribers,
    watcherEvents,
    get costUsd() {
      return costUsd
    },
    observeTurns(observe) {
      for (const turn of unscraped ?? []) observe(turn)
      unscraped = null
      observer = observe
    },
    close() {
      unsubscribe()
      removeHook?.()
    },
  }
}
