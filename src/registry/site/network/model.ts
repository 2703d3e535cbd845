/**
 * The network as this node sees it: one small entry per agent (name, brand,
 * category, online, operational), loaded from the store at start and kept
 * current from the registry's events, which reach every node over the bus.
 * The page's counts, `graph.json` and the event stream all read it, so no
 * request ever reads every agent from the store.
 *
 * Online is a flag the events flip (`agent.online` re-reads the agent,
 * `agent.offline` from the sweep clears it), not a clock comparison: the
 * heartbeat moves an agent's watermark without an event, so a watermark
 * read once goes stale while the agent stays online. The bus is
 * at-most-once; a periodic re-read heals a lost event.
 */
import type {Bus} from '../../../bus/bus.js'
import type {Logger} from '../../../lib/log.js'
import {PROBE_EVENTS_SUBJECT} from '../../probe/constants.js'
import {isOnline} from '../../records.js'
import type {RegistryStore} from '../../store/store.js'
import type {AgentRecord, RegistryEvent, RegistryEvents} from '../../types.js'
import {clip} from '../html.js'
import {CLIP} from '../constants.js'
import {LAYOUT_DEBOUNCE_MS, MODEL_LOAD_PAGE_SIZE} from './constants.js'
import {computeLayout, type Layout, type LayoutGroup} from './layout.js'

/** One agent on the wire: the `data` of `event: agent` on `/network/events`. */
export interface NetworkNode {
  id: string
  name: string
  brand: string | null
  category: string | null
  online: boolean
  /** ISO-8601 UTC of the last token call as last read; null when never seen. */
  last_seen: string | null
  /** The prober's verdict; null before the first probe. */
  operational: boolean | null
}

/** `GET /network/graph.json`. Each node's `group` indexes its category circle in `groups`. */
export interface NetworkGraph {
  width: number
  height: number
  agents: number
  online: number
  groups: LayoutGroup[]
  nodes: Array<{id: string; name: string; group: number; online: boolean; x: number; y: number; r: number}>
}

export interface NetworkModelOptions {
  store: Pick<RegistryStore, 'listAgents' | 'getAgent'>
  events: RegistryEvents
  bus: Pick<Bus, 'subscribe'>
  clock: () => number
  logger: Logger
  /** How often every agent is re-read from the store (heals lost events); 0 disables. Default 10 minutes. */
  resyncMs?: number
  /** Quiet time before the layout is recomputed after a change; default LAYOUT_DEBOUNCE_MS. */
  layoutDebounceMs?: number
}

export interface NetworkModel {
  /** Subscribes and loads every agent (page by page). */
  start(): Promise<void>
  /** Stops following events and waits for reads in flight. */
  close(): Promise<void>
  counts(): {agents: number; online: number}
  node(id: string): NetworkNode | null
  /** The whole graph, serialized (cached until something changes). */
  graphJson(): string
  /** Called with the agent's new view after each event was applied. Returns the unsubscribe function. */
  onChange(listener: (node: NetworkNode) => void): () => void
}

const DEFAULT_RESYNC_MS = 10 * 60_000

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The wire view of one stored agent at `nowMs`. */
export function networkNode(record: AgentRecord, nowMs: number): NetworkNode {
  const category = record.agentCard?.category
  return {
    id: record.agentId,
    // spec: without a hoisted name the agent appears under its raw agent_id.
    name: clip(record.displayName ?? record.agentId, CLIP.name),
    brand: record.brand,
    category: typeof category === 'string' ? clip(category, CLIP.name) : null,
    online: isOnline(record, nowMs),
    last_seen: iso(record.lastSeenMs),
    operational: record.probe?.operational ?? null,
  }
}

const sameNode = (a: NetworkNode | undefined, b: NetworkNode) =>
  a !== undefined && a.name === b.name && a.brand === b.brand && a.category === b.category && a.online === b.online && a.operational === b.operational && a.last_seen === b.last_seen

export function createNetworkModel(options: NetworkModelOptions): NetworkModel {
  const {store, clock, logger} = options
  const nodes = new Map<string, NetworkNode>()
  const listeners = new Set<(node: NetworkNode) => void>()
  const unsubscribe: Array<() => void> = []
  // One read at a time per agent, applied in event order.
  const chains = new Map<string, Promise<void>>()
  const pendingDuringLoad: RegistryEvent[] = []
  let loaded = false
  let closed = false
  let starting: Promise<void> | undefined
  let resyncTimer: NodeJS.Timeout | undefined
  let layout: Layout | undefined
  let layoutDirty = true
  let layoutTimer: NodeJS.Timeout | undefined
  let graphCache: string | undefined

  function scheduleLayout() {
    layoutDirty = true
    graphCache = undefined
    if (layoutTimer || closed) return
    layoutTimer = setTimeout(() => {
      layoutTimer = undefined
      currentLayout()
      graphCache = undefined
    }, options.layoutDebounceMs ?? LAYOUT_DEBOUNCE_MS)
    layoutTimer.unref()
  }

  function currentLayout(): Layout {
    if (!layout || layoutDirty) {
      layout = computeLayout(nodes.values())
      layoutDirty = false
    }
    return layout
  }

  /** Stores the agent's view; true when it differs from the one held. */
  function put(node: NetworkNode): boolean {
    const previous = nodes.get(node.id)
    if (sameNode(previous, node)) return false
    nodes.set(node.id, node)
    graphCache = undefined
    if (!previous || previous.brand !== node.brand || previous.category !== node.category) scheduleLayout()
    return true
  }

  function emit(node: NetworkNode) {
    for (const listener of listeners) {
      try {
        listener(node)
      } catch (error) {
        logger.warn('network listener failed', {error: String(error)})
      }
    }
  }

  async function apply(event: {type: RegistryEvent['type'] | 'probe'; agent_id: string}): Promise<void> {
    const held = nodes.get(event.agent_id)
    if (event.type === 'agent.offline') {
      // The sweep's verdict needs no read (a re-read could race the agent's return).
      if (!held) return
      const node = {...held, online: false}
      put(node)
      emit(node)
      return
    }
    const record = await store.getAgent(event.agent_id)
    if (closed) return
    if (!record) {
      if (held && nodes.delete(event.agent_id)) scheduleLayout()
      return
    }
    const node = networkNode(record, clock())
    put(node)
    emit(node)
  }

  function enqueue(event: {type: RegistryEvent['type'] | 'probe'; agent_id: string}) {
    if (closed) return
    const previous = chains.get(event.agent_id) ?? Promise.resolve()
    const next = previous
      .then(() => apply(event))
      .catch((error: unknown) => logger.warn('network model refresh failed', {agent_id: event.agent_id, error: String(error)}))
    chains.set(event.agent_id, next)
    void next.finally(() => {
      if (chains.get(event.agent_id) === next) chains.delete(event.agent_id)
    })
  }

  function onEvent(event: RegistryEvent) {
    if (!loaded) pendingDuringLoad.push(event)
    else enqueue(event)
  }

  function onProbe(data: Uint8Array) {
    try {
      const {agent_id: agentId} = JSON.parse(Buffer.from(data).toString('utf8')) as {agent_id?: unknown}
      if (typeof agentId === 'string' && loaded) enqueue({type: 'probe', agent_id: agentId})
    } catch {
      // Not ours to judge: the probe part logs malformed events.
    }
  }

  /** Reads every agent page by page; `emitChanges` tells listeners about what differs (the periodic re-read). */
  async function loadAll(emitChanges: boolean) {
    let after: string | undefined
    do {
      const page = await store.listAgents({limit: MODEL_LOAD_PAGE_SIZE, after})
      if (closed) return
      const now = clock()
      for (const record of page.agents) {
        // An event's read in flight is newer than this page.
        if (emitChanges && chains.has(record.agentId)) continue
        const node = networkNode(record, now)
        if (put(node) && emitChanges) emit(node)
      }
      after = page.nextAfter ?? undefined
    } while (after !== undefined)
  }

  return {
    start() {
      starting ??= (async () => {
        unsubscribe.push(options.events.subscribe(onEvent))
        unsubscribe.push(options.bus.subscribe(PROBE_EVENTS_SUBJECT, onProbe))
        await loadAll(false)
        // The first graph.json is served from a ready layout, not built under a request.
        clearTimeout(layoutTimer)
        layoutTimer = undefined
        currentLayout()
        loaded = true
        for (const event of pendingDuringLoad.splice(0)) enqueue(event)
        const resyncMs = options.resyncMs ?? DEFAULT_RESYNC_MS
        if (resyncMs > 0 && !closed) {
          resyncTimer = setInterval(() => {
            loadAll(true).catch((error: unknown) => logger.warn('network model re-read failed', {error: String(error)}))
          }, resyncMs)
          resyncTimer.unref()
        }
      })()
      return starting
    },
    async close() {
      closed = true
      for (const stop of unsubscribe.splice(0)) stop()
      clearInterval(resyncTimer)
      clearTimeout(layoutTimer)
      layoutTimer = undefined
      await Promise.all([...chains.values()])
      listeners.clear()
    },
    counts() {
      let online = 0
      for (const node of nodes.values()) if (node.online) online++
      return {agents: nodes.size, online}
    },
    node: (id) => nodes.get(id) ?? null,
    graphJson() {
      if (graphCache !== undefined) return graphCache
      const {width, height, groups, positions} = currentLayout()
      const out: NetworkGraph['nodes'] = []
      let online = 0
      // In layout order (brand, category, id): the same agents give the same text.
      for (const [id, at] of positions) {
        const node = nodes.get(id)
        if (!node) continue
        if (node.online) online++
        out.push({id: node.id, name: node.name, group: at.group, online: node.online, x: at.x, y: at.y, r: at.r})
      }
      const graph: NetworkGraph = {width, height, agents: out.length, online, groups, nodes: out}
      graphCache = JSON.stringify(graph)
      return graphCache
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
