import type {Bus} from '../../../bus/bus.js'
import {createNodeHeartbeat} from '../../../bus/node-heartbeat.js'
import type {Logger} from '../../../lib/log.js'
import {NODE_HEARTBEAT_MS, NODE_STALE_MS, WS_REMOTE_ACK_TIMEOUT_MS, subjectOfNode} from '../constants.js'
import type {MessagingStore} from '../store/store.js'
import type {ServerFrame} from './frames.js'

/** One open agent socket as the router sees it. */
export interface LiveSocket {
  /** Queues a frame on the socket (buffered until the socket's welcome is out). */
  send(frame: ServerFrame): void
}

/** Bus envelopes between nodes. */
type Envelope =
  | {kind: 'push'; origin: string; seq: number; agent: string; frame: ServerFrame}
  | {kind: 'ack'; node: string; seq: number; sockets: number}

export interface LiveRouterOptions {
  store: MessagingStore
  bus: Bus
  clock: () => number
  logger: Logger
  remoteAckTimeoutMs?: number
}

const encode = (envelope: Envelope) => new TextEncoder().encode(JSON.stringify(envelope))

/**
 * Where live sockets are, across nodes. Each node keeps its own sockets and
 * records "agent X has a socket on node N" in the shared store. A push goes
 * to local sockets directly and to each other holding node on that node's
 * bus subject `registry.node.<N>`; the node answers on the origin's subject
 * with how many sockets it reached (0 when the agent just left), so the
 * sender learns `delivered` (n > 0) or must queue (0) without waiting.
 * Node subjects rather than per-agent subjects: the presence table already
 * names the node, and a node that lost the agent can still answer "0".
 */
export function createLiveRouter(options: LiveRouterOptions) {
  const {store, bus, clock, logger} = options
  const nodeId = bus.nodeId
  interface Held {
    sockets: Set<LiveSocket>
    /** Resolves once the presence row is in place. */
    ready: Promise<void>
  }
  const local = new Map<string, Held>()
  const pending = new Map<number, {waiting: Set<string>; sockets: number; done: (sockets: number) => void}>()
  // Presence writes of one agent run in order, so a detach racing a re-attach cannot erase the newer row.
  const presenceChain = new Map<string, Promise<void>>()
  const serially = (agentId: string, work: () => Promise<void>): Promise<void> => {
    const next = (presenceChain.get(agentId) ?? Promise.resolve()).then(work, work)
    presenceChain.set(agentId, next)
    void next.finally(() => presenceChain.get(agentId) === next && presenceChain.delete(agentId)).catch(() => {})
    return next
  }
  let seq = 0
  let unsubscribeNode: (() => void) | undefined
  // Silent after NODE_STALE_MS (its sockets no longer count), swept after four times that.
  const node = createNodeHeartbeat({
    nodeId,
    table: store,
    clock,
    logger,
    area: 'messaging',
    intervalMs: NODE_HEARTBEAT_MS,
    staleMs: NODE_STALE_MS,
    sweepAfterMs: 4 * NODE_STALE_MS,
    // Swept after a stall (e.g. a database outage): every agent with a socket here is written again.
    async rewrite() {
      const agents = [...local.keys()]
      // In each agent's write order: one whose last socket left meanwhile is not written back.
      const rewrite = (agentId: string) => serially(agentId, async () => void (local.has(agentId) && (await store.addPresence(agentId, nodeId, clock()))))
      await Promise.all(agents.map(rewrite))
      return () => agents.filter((agentId) => local.has(agentId)).length
    },
  })

  const deliverLocal = (agentId: string, frame: ServerFrame): number => {
    const held = local.get(agentId)
    if (!held) return 0
    for (const socket of held.sockets) socket.send(frame)
    return held.sockets.size
  }

  const onNodeSubject = (data: Uint8Array) => {
    const envelope = JSON.parse(new TextDecoder().decode(data)) as Envelope
    if (envelope.kind === 'push') {
      const sockets = deliverLocal(envelope.agent, envelope.frame)
      bus.publish(subjectOfNode(envelope.origin), encode({kind: 'ack', node: nodeId, seq: envelope.seq, sockets}))
      return
    }
    const entry = pending.get(envelope.seq)
    if (!entry || !entry.waiting.delete(envelope.node)) return
    entry.sockets += envelope.sockets
    if (entry.waiting.size === 0) entry.done(entry.sockets)
  }

  /** Delivers to the agent's sockets on `nodes` (this one included); resolves with the sockets reached. */
  async function deliverTo(nodes: string[], agentId: string, frame: ServerFrame): Promise<number> {
    const here = deliverLocal(agentId, frame)
    const remote = nodes.filter((node) => node !== nodeId)
    if (remote.length === 0) return here
    const mySeq = ++seq
    const there = new Promise<number>((resolve) => {
      const timer = setTimeout(() => entry.done(entry.sockets), options.remoteAckTimeoutMs ?? WS_REMOTE_ACK_TIMEOUT_MS)
      const entry = {
        waiting: new Set(remote),
        sockets: 0,
        done: (sockets: number) => {
          clearTimeout(timer)
          pending.delete(mySeq)
          resolve(sockets)
        },
      }
      pending.set(mySeq, entry)
    })
    const envelope = encode({kind: 'push', origin: nodeId, seq: mySeq, agent: agentId, frame})
    for (const node of remote) bus.publish(subjectOfNode(node), envelope)
    return here + (await there)
  }

  const freshSince = () => clock() - NODE_STALE_MS

  return {
    nodeId,
    /** The other registry nodes as the last beat saw them (`/health`). */
    peers: node.peers,

    /** Registers a socket; once this resolves, pushes from any node reach it. */
    async attach(agentId: string, socket: LiveSocket): Promise<void> {
      let held = local.get(agentId)
      if (!held) {
        held = {sockets: new Set(), ready: serially(agentId, () => store.addPresence(agentId, nodeId, clock()))}
        local.set(agentId, held)
      }
      held.sockets.add(socket)
      await held.ready
    },

    async detach(agentId: string, socket: LiveSocket): Promise<void> {
      const held = local.get(agentId)
      if (!held?.sockets.delete(socket) || held.sockets.size > 0) return
      local.delete(agentId)
      await serially(agentId, async () => {
        if (!local.has(agentId)) await store.removePresence(agentId, nodeId)
      })
    },

    /** Pushes a frame (e.g. a receipt) to the agent's live sockets on every node. */
    async push(agentId: string, frame: ServerFrame): Promise<number> {
      const nodes = local.has(agentId) ? [nodeId, ...(await store.nodesOf(agentId, freshSince()))] : await store.nodesOf(agentId, freshSince())
      return deliverTo([...new Set(nodes)], agentId, frame)
    },

    /** Sends a live direct message; `sockets` 0 means nobody was connected and the caller must store it under `id`. */
    async sendMessage(from: string, to: string, payload: unknown): Promise<{id: number; ts: string; sockets: number}> {
      const {id, nodes} = await store.prepareLive(to, freshSince())
      const ts = new Date(clock()).toISOString()
      const sockets = await deliverTo(nodes, to, {type: 'message', id, from, payload, ts})
      return {id, ts, sockets}
    },

    /** Whether the agent has a socket on any fresh node. */
    async isOnline(agentId: string): Promise<boolean> {
      return local.has(agentId) || (await store.nodesOf(agentId, freshSince())).length > 0
    },

    /** Subscribes to this node's subject, then heartbeats its row and sweeps nodes that stopped heartbeating. */
    async start(): Promise<void> {
      unsubscribeNode = bus.subscribe(subjectOfNode(nodeId), onNodeSubject)
      // The subscription must be live at the NATS server before this node announces itself.
      await bus.flush()
      await node.start()
    },

    /** Runs one heartbeat now (the timer's work; tests call it with an injected clock). Rejects, after logging, when the store fails. */
    heartbeat: node.beat,

    async close(): Promise<void> {
      const beating = node.stop()
      unsubscribeNode?.()
      local.clear()
      // Detaches of sockets closed just now finish before the node's rows go (and before the caller ends the pool).
      await Promise.allSettled([...presenceChain.values(), beating])
      for (const entry of pending.values()) entry.done(entry.sockets)
      await node.leave()
    },
  }
}

export type LiveRouter = ReturnType<typeof createLiveRouter>
