/**
 * One node's heartbeat among the nodes of its deployment, the same for every
 * area that keeps per-node presence rows in the shared store (the relay's
 * cluster members, messaging's agent sockets): write this node's row, read
 * everyone's (the peer watch logs changes and answers `/health`), sweep nodes
 * silent too long together with their presence, and — when this node finds
 * its own row gone because peers swept it after a stall — write its presence
 * again and announce it once its row is seen live (docs/relay.md and
 * docs/messaging.md, Several nodes). The area supplies only what its rows
 * are: `rewrite` and, for live state kept in memory, `afterSweep`.
 */
import type {Logger} from '../lib/log.js'
import type {NodeSeen, NodeTable} from '../store/nodes/table.js'
import {createPeerWatch, type PeerWatch} from './peers.js'

export interface NodeHeartbeatOptions {
  /** This node (the bus's nodeId). */
  nodeId: string
  table: NodeTable
  clock: () => number
  logger: Logger
  /** Which node table this is, in every log line: `relay` or `messaging`. */
  area: string
  /** Time between beats. */
  intervalMs: number
  /** A node not heard for this long is silent: its presence no longer counts. */
  staleMs: number
  /** A node silent this long is swept with its presence rows (default staleMs). */
  sweepAfterMs?: number
  /**
   * Peers swept this node (it stalled, it was not dead) and its presence rows
   * with it: write them again. Answers the function that announces them, run
   * once this node's row is seen live after the sweep; it answers how many it
   * announced. Called at each beat until that happens.
   */
  rewrite(): Promise<() => number>
  /** After each sweep, with the live nodes (this one included): drop what lived on the others. */
  afterSweep?(live: Set<string>): void
}

export interface NodeHeartbeat {
  /** The other nodes as the last beat saw them (logs and `/health`). */
  readonly peers: PeerWatch
  /** Writes this node's row once, before any of its presence rows can count; retried after a failure. */
  ensure(): Promise<void>
  /** ensure(), a first beat right away (so `/health` lists peers from the start), then one every intervalMs. */
  start(): Promise<void>
  /** One beat now (the timer's work; tests call it with an injected clock). Rejects, after logging, when the store fails. */
  beat(): Promise<void>
  /** No more beats (and no more rewrites); resolves once the beat in flight is done. */
  stop(): Promise<void>
  /** Removes this node's row and its presence rows (a clean stop: peers see its members leave at once). */
  leave(): Promise<void>
}

export function createNodeHeartbeat(options: NodeHeartbeatOptions): NodeHeartbeat {
  const {nodeId, table, clock, logger, area, staleMs} = options
  const sweepAfterMs = options.sweepAfterMs ?? staleMs
  const peers = createPeerWatch({nodeId, staleMs, logger, area})
  let first: Promise<void> | null = null
  let timer: NodeJS.Timeout | undefined
  let started: Promise<void> | undefined
  let running: Promise<void> | undefined
  let stopped = false
  /** A beat found this node's row gone; stays set until its presence is announced again. */
  let swept = false
  /** The clock-behind warning of the current sweep, logged once. */
  let behindLogged = false

  /**
   * Whether this node's row, written at `now`, outlives the peers' sweeps. A
   * peer whose last beat is more than the sweep window ahead of our clock
   * sweeps it at each of its beats: writing the presence again would only make
   * it flap, so it stays hidden and this is logged once.
   */
  const inStep = (nodes: NodeSeen[], now: number): boolean => {
    const ahead = Math.max(0, ...nodes.filter((n) => n.node_id !== nodeId).map((n) => n.seen_at)) - now
    if (ahead <= sweepAfterMs) return true
    if (!behindLogged) logger.warn('node clock behind peers; members not announced again', {area, node_id: nodeId, behind_ms: ahead})
    behindLogged = true
    return false
  }

  async function beatOnce(): Promise<void> {
    const now = clock()
    if (!(await table.touchNode(nodeId, now))) swept = true
    const nodes = await table.listNodes()
    peers.observe(nodes, now)
    const announce = swept && !stopped && inStep(nodes, now) ? await options.rewrite() : null
    peers.swept(await table.sweepNodes(now - sweepAfterMs))
    // Read after the sweep: a node that started meanwhile keeps its members.
    const liveNodes = await table.listLiveNodes(now - staleMs)
    // Swept again since our touch (a slow write, a peer's clock ahead): the rows just written hang on no
    // node row and peers would drop them at their next beat. The next beat finds the row gone again.
    if (announce && liveNodes.includes(nodeId)) {
      swept = false
      behindLogged = false
      const members = announce()
      if (members > 0) logger.info('node was swept; members announced again', {area, node_id: nodeId, members})
    }
    const live = new Set(liveNodes)
    live.add(nodeId)
    options.afterSweep?.(live)
  }

  function beat(): Promise<void> {
    const run = beatOnce().catch((error: unknown) => {
      logger.warn('presence heartbeat failed', {area, error: String((error as Error)?.message ?? error)})
      throw error
    })
    running = run.catch(() => {})
    return run
  }

  function ensure(): Promise<void> {
    first ??= table.touchNode(nodeId, clock()).then(
      () => {},
      (error: unknown) => {
        first = null
        throw error
      },
    )
    return first
  }

  return {
    peers,
    ensure,
    beat,
    start() {
      if (started) return started
      timer = setInterval(() => void beat().catch(() => {}), options.intervalMs)
      timer.unref?.()
      started = ensure().then(beat)
      return started
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
    async leave() {
      await table.removeNode(nodeId).catch((error: unknown) => logger.warn('presence cleanup failed', {area, error: String(error)}))
    },
  }
}
