/**
 * The probe loop of one registry node. Passes run one at a time (the next is
 * scheduled only when the previous one ended), each over the store's online
 * agents with an endpoint and a card, at most `concurrency` agents at once,
 * each after a random jitter. An agent probed recently (by this node's event
 * trigger or by another node) is skipped, so several nodes share the work.
 * A changed card or an agent coming back online triggers a probe of that
 * agent soon, without waiting for the next pass.
 */
import type {Bus} from '../../bus/bus.js'
import type {Logger} from '../../lib/log.js'
import type {RegistryStore} from '../store/store.js'
import type {AgentRecord, JsonObject, ProbeResult, RegistryEvent, RegistryEvents} from '../types.js'
import {
  DEFAULT_FIRST_PASS_DELAY_MS,
  DEFAULT_PROBE_CONCURRENCY,
  DEFAULT_PROBE_INTERVAL_MS,
  DEFAULT_PROBE_JITTER_MS,
  EVENT_REPROBE_MIN_MS,
  FRESH_PROBE_SHARE,
  ONLINE_WINDOW_MS,
  PROBE_EVENTS_SUBJECT,
} from './constants.js'
import {cardHash, probeAgent, type ProbeFetch} from './probe-agent.js'

export interface ProberOptions {
  store: Pick<RegistryStore, 'listProbeTargets' | 'saveProbe' | 'getAgent'>
  bus: Bus
  events: RegistryEvents
  clock: () => number
  logger: Logger
  fetch: ProbeFetch
  /** Told each saved probe's result (the metrics' probe outcomes). */
  onProbed?(result: ProbeResult): void
  intervalMs?: number
  firstPassDelayMs?: number
  concurrency?: number
  jitterMs?: number
  /** 0 ≤ x < 1; injectable so tests are deterministic. */
  random?: () => number
}

export interface PassSummary {
  targets: number
  probed: number
  skipped: number
  failed: number
}

export interface Prober {
  start(): void
  /** Runs a pass now, or joins the one already running (passes never overlap). */
  runPass(): Promise<PassSummary>
  /** Probes one agent now if it is online with an endpoint and a card; true when it did. */
  probeOne(agentId: string): Promise<boolean>
  /** Resolves once event-triggered and single-agent probes started so far have ended. */
  idle(): Promise<void>
  close(): Promise<void>
}

/** The stored PublicCard and its fetch time (results saved before `card_fetched_at` existed fetched it at `probed_at`). */
function lastGoodCard(record: AgentRecord): {card: JsonObject; fetchedAt: string} | null {
  const probe = record.probe
  if (!probe?.card) return null
  return {card: probe.card, fetchedAt: probe.card_fetched_at ?? probe.probed_at}
}

const probedAtMs = (record: AgentRecord) => (record.probe ? Date.parse(record.probe.probed_at) : Number.NEGATIVE_INFINITY)

export function createProber(options: ProberOptions): Prober {
  const {store, clock, logger} = options
  const intervalMs = options.intervalMs ?? DEFAULT_PROBE_INTERVAL_MS
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_PROBE_CONCURRENCY)
  const jitterMs = options.jitterMs ?? DEFAULT_PROBE_JITTER_MS
  const random = options.random ?? Math.random
  const stopping = new AbortController()
  let timer: NodeJS.Timeout | undefined
  let running: Promise<PassSummary> | undefined
  let unsubscribe: (() => void) | undefined
  const inFlight = new Map<string, Promise<boolean>>()
  // Agents named by events, checked in batches by one drain loop (a heartbeat publishes agent.card every time).
  const eventQueue = new Set<string>()
  let draining: Promise<void> | undefined

  /** Waits `ms`, or less when the prober is closing. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || stopping.signal.aborted) return resolve()
      const t = setTimeout(done, ms)
      function done() {
        clearTimeout(t)
        stopping.signal.removeEventListener('abort', done)
        resolve()
      }
      stopping.signal.addEventListener('abort', done, {once: true})
    })

  /** Probes and saves one record; one probe per agent at a time on this node. */
  function probeRecord(record: AgentRecord): Promise<boolean> {
    const existing = inFlight.get(record.agentId)
    if (existing) return existing
    const job = (async () => {
      const result = await probeAgent(
        {agentId: record.agentId, endpoint: record.endpoint!, discoveryCard: record.agentCard, lastCard: lastGoodCard(record)},
        {fetch: options.fetch, now: clock, signal: stopping.signal},
      )
      if (stopping.signal.aborted) return false
      await store.saveProbe(record.agentId, result)
      options.onProbed?.(result)
      options.bus.publish(PROBE_EVENTS_SUBJECT, Buffer.from(JSON.stringify({agent_id: record.agentId, at: result.probed_at})))
      return true
    })().finally(() => inFlight.delete(record.agentId))
    inFlight.set(record.agentId, job)
    return job
  }

  async function pass(): Promise<PassSummary> {
    const now = clock()
    const targets = await store.listProbeTargets(now - ONLINE_WINDOW_MS)
    const due = targets.filter((record) => now - probedAtMs(record) >= intervalMs * FRESH_PROBE_SHARE)
    const summary: PassSummary = {targets: targets.length, probed: 0, skipped: targets.length - due.length, failed: 0}
    let next = 0
    const worker = async () => {
      while (next < due.length && !stopping.signal.aborted) {
        const record = due[next++]
        await pause(random() * jitterMs)
        if (stopping.signal.aborted) break
        try {
          if (await probeRecord(record)) summary.probed++
        } catch (error) {
          summary.failed++
          logger.warn('probe failed', {agent_id: record.agentId, error: String(error)})
        }
      }
    }
    await Promise.all(Array.from({length: Math.min(concurrency, due.length)}, worker))
    logger.debug('probe pass done', {...summary})
    return summary
  }

  function runPass(): Promise<PassSummary> {
    running ??= pass().finally(() => {
      running = undefined
    })
    return running
  }

  function schedule(delayMs: number): void {
    if (stopping.signal.aborted) return
    timer = setTimeout(() => {
      runPass()
        .catch((error: unknown) => logger.warn('probe pass failed', {error: String(error)}))
        .finally(() => schedule(intervalMs))
    }, delayMs)
    timer.unref()
  }

  async function probeOne(agentId: string): Promise<boolean> {
    const record = await store.getAgent(agentId)
    if (!record || !record.endpoint || !record.agentCard) return false
    if (record.lastSeenMs === null || record.lastSeenMs < clock() - ONLINE_WINDOW_MS) return false
    return probeRecord(record)
  }

  /** Probes an agent named by an event when its card changed, it was never probed, or its last probe is due. */
  async function checkAfterEvent(agentId: string): Promise<void> {
    const record = await store.getAgent(agentId)
    if (!record || !record.endpoint || !record.agentCard) return
    const now = clock()
    if (record.lastSeenMs === null || record.lastSeenMs < now - ONLINE_WINDOW_MS) return
    if (record.probe) {
      const age = now - probedAtMs(record)
      if (age < EVENT_REPROBE_MIN_MS) return // another node (or this one) just did
      const cardChanged = record.probe.discovery_card_hash !== cardHash(record.agentCard)
      if (!cardChanged && age < intervalMs * FRESH_PROBE_SHARE) return
    }
    await probeRecord(record)
  }

  async function drainEvents(): Promise<void> {
    // One jitter per batch: nodes receiving the same event rarely probe at the same instant.
    await pause(random() * jitterMs)
    while (eventQueue.size > 0 && !stopping.signal.aborted) {
      const batch = [...eventQueue].slice(0, concurrency)
      for (const id of batch) eventQueue.delete(id)
      await Promise.all(batch.map((id) => checkAfterEvent(id).catch((error: unknown) => logger.warn('event probe failed', {agent_id: id, error: String(error)}))))
    }
  }

  /** Starts the drain loop unless it runs; restarts it for events that raced its end. */
  function kick(): void {
    if (draining || eventQueue.size === 0 || stopping.signal.aborted) return
    draining = drainEvents().finally(() => {
      draining = undefined
      kick()
    })
  }

  /** A new or changed card, or an agent back online, gets probed soon rather than at the next pass. */
  function onEvent(event: RegistryEvent): void {
    if (event.type !== 'agent.card' && event.type !== 'agent.online') return
    eventQueue.add(event.agent_id)
    kick()
  }

  return {
    start() {
      if (unsubscribe || stopping.signal.aborted) return
      unsubscribe = options.events.subscribe(onEvent)
      schedule(options.firstPassDelayMs ?? DEFAULT_FIRST_PASS_DELAY_MS)
    },
    runPass,
    probeOne,
    async idle() {
      while (draining || inFlight.size > 0) await Promise.allSettled([draining, ...inFlight.values()])
    },
    async close() {
      stopping.abort()
      if (timer) clearTimeout(timer)
      unsubscribe?.()
      await Promise.allSettled([running, draining, ...inFlight.values()])
    },
  }
}
