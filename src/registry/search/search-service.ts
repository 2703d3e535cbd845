/**
 * Search on one registry node: the in-memory index, loaded from the store at
 * start and kept current from bus events. Every node updates its own index
 * from the same events, so all nodes answer alike; a periodic re-read heals
 * any event the at-most-once bus lost. Results are re-checked against the
 * store's heartbeat watermark at query time (spec: offline after 5 minutes).
 */
import type {Bus} from '../../bus/bus.js'
import type {Logger} from '../../lib/log.js'
import type {RegistryStore} from '../store/store.js'
import type {LiveCheck, RegistryEvent, RegistryEvents} from '../types.js'
import {AgentSearchIndex} from './agent-index.js'
import {PROBE_EVENTS_SUBJECT} from '../probe/constants.js'
import {DEFAULT_RESYNC_MS, LOAD_PAGE_SIZE} from './constants.js'
import type {InvokeTarget} from './documents.js'
import type {SearchRequest} from './request.js'
import type {RegistryMetrics} from '../metrics.js'

/** One result item. DECISIONS: at least these fields. */
export interface SearchResultItem {
  agent_id: string
  display_name: string
  did: string | null
  verified: boolean
  endpoint: string | null
  online: boolean
  operational: boolean | null
  card_match: string | null
  /** The prober's last liveness reading; null before the first probe (docs/search-and-probes.md). */
  live_check: LiveCheck | null
  score: number
  invoke: InvokeTarget[]
  description: string | null
  category: string | null
  tags: string[]
}

export interface SearchResponse {
  results: SearchResultItem[]
  count: number
  ignored_keys: string[]
  took_ms: number
}

export interface SearchServiceOptions {
  store: Pick<RegistryStore, 'listAgents' | 'getAgent'>
  events: RegistryEvents
  bus: Bus
  clock: () => number
  logger: Logger
  /** How often the whole index is re-read from the store; 0 disables. */
  resyncMs?: number
  /** Counts searches run (`POST /v1/search`, the network page's query); default nothing. */
  metrics?: Pick<RegistryMetrics, 'search'>
}

export interface SearchService {
  readonly index: AgentSearchIndex
  /** Loads the index and subscribes to events (idempotent; the first search calls it too). */
  start(): Promise<void>
  search(request: SearchRequest): Promise<SearchResponse>
  /** Stops following events and waits for refreshes in flight (they read the store). */
  close(): Promise<void>
}

// Rounds of "rank, re-check liveness, re-rank" before answering with what is confirmed.
const VERIFY_ROUNDS = 4

export function createSearchService(options: SearchServiceOptions): SearchService {
  const {store, clock, logger} = options
  const index = new AgentSearchIndex()
  const unsubscribe: Array<() => void> = []
  let loading: Promise<void> | undefined
  let loaded = false
  let resyncTimer: NodeJS.Timeout | undefined
  // Ids that changed while the first load ran, refreshed once it is done.
  const pendingDuringLoad = new Set<string>()
  // One refresh at a time per agent, so an older read never overwrites a newer one.
  const refreshing = new Map<string, Promise<void>>()

  async function loadAll(): Promise<void> {
    let after: string | undefined
    do {
      const page = await store.listAgents({limit: LOAD_PAGE_SIZE, after})
      const now = clock()
      for (const record of page.agents) index.upsert(record, now)
      after = page.nextAfter ?? undefined
    } while (after !== undefined)
  }

  function refresh(agentId: string): Promise<void> {
    if (!loaded) {
      pendingDuringLoad.add(agentId)
      return Promise.resolve()
    }
    const previous = refreshing.get(agentId) ?? Promise.resolve()
    const next = previous.then(async () => {
      const record = await store.getAgent(agentId)
      if (record) index.upsert(record, clock())
      else index.remove(agentId)
    }).catch((error: unknown) => logger.warn('search index refresh failed', {agent_id: agentId, error: String(error)}))
    refreshing.set(agentId, next)
    void next.finally(() => {
      if (refreshing.get(agentId) === next) refreshing.delete(agentId)
    })
    return next
  }

  function onEvent(event: RegistryEvent): void {
    // An offline transition needs no read: drop the agent from live results at once.
    if (event.type === 'agent.offline') index.setOnline(event.agent_id, false)
    void refresh(event.agent_id)
  }

  function onProbeEvent(data: Uint8Array): void {
    try {
      const {agent_id: agentId} = JSON.parse(Buffer.from(data).toString('utf8')) as {agent_id?: unknown}
      if (typeof agentId === 'string') void refresh(agentId)
    } catch {
      logger.warn('malformed probe event on the bus')
    }
  }

  function start(): Promise<void> {
    loading ??= (async () => {
      if (unsubscribe.length === 0) {
        unsubscribe.push(options.events.subscribe(onEvent))
        unsubscribe.push(options.bus.subscribe(PROBE_EVENTS_SUBJECT, onProbeEvent))
      }
      await loadAll()
      loaded = true
      await Promise.all([...pendingDuringLoad].map(refresh))
      pendingDuringLoad.clear()
      const resyncMs = options.resyncMs ?? DEFAULT_RESYNC_MS
      if (resyncMs > 0) {
        resyncTimer = setInterval(() => {
          loadAll().catch((error: unknown) => logger.warn('search index resync failed', {error: String(error)}))
        }, resyncMs)
        resyncTimer.unref()
      }
      logger.info('search index loaded', {agents: index.size})
    })()
    loading.catch(() => {
      loading = undefined // a later call retries a failed load
    })
    return loading
  }

  /** Re-reads the given agents from the store, so their liveness and qualities are current. */
  async function confirmOnline(agentIds: string[]): Promise<void> {
    await Promise.all(agentIds.map(async (agentId) => {
      const record = await store.getAgent(agentId)
      if (record) index.upsert(record, clock())
      else index.remove(agentId)
    }))
  }

  async function search(request: SearchRequest): Promise<SearchResponse> {
    const started = performance.now()
    options.metrics?.search()
    await start()
    const confirmed = new Set<string>()
    let ranked = index.query(request.prompt, request.filters)
    for (let round = 0; round < VERIFY_ROUNDS; round++) {
      const unconfirmed = ranked.map((hit) => hit.doc.agentId).filter((id) => !confirmed.has(id))
      if (unconfirmed.length === 0) break
      await confirmOnline(unconfirmed)
      for (const id of unconfirmed) confirmed.add(id)
      ranked = index.query(request.prompt, request.filters)
    }
    const results = ranked.filter((hit) => confirmed.has(hit.doc.agentId) && hit.doc.online).map(({doc, score}): SearchResultItem => ({
      agent_id: doc.agentId,
      display_name: doc.displayName,
      did: doc.did,
      verified: doc.verified,
      endpoint: doc.endpoint,
      online: doc.online,
      operational: doc.operational,
      card_match: doc.cardMatch,
      live_check: doc.liveCheck,
      score: Math.round(score * 10_000) / 10_000,
      invoke: doc.invoke,
      description: doc.description,
      category: doc.category,
      tags: doc.tags,
    }))
    return {results, count: results.length, ignored_keys: request.ignoredKeys, took_ms: Math.round((performance.now() - started) * 10) / 10}
  }

  return {
    index,
    start,
    search,
    async close() {
      for (const stop of unsubscribe.splice(0)) stop()
      if (resyncTimer) clearInterval(resyncTimer)
      await Promise.allSettled([...refreshing.values()])
    },
  }
}
