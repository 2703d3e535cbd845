/**
 * The live side of the relay on one node: rooms, joins and leaves, sends,
 * deletion and shutdown, and the node's share of presence across nodes.
 *
 * Several nodes: each cluster has one bus subject; a node subscribes only
 * while it has a local member of that cluster. Presence rows live in the
 * store keyed by node (so `ready.online`, catalog counts and member limits see
 * every node) and join/leave events travel on the subject (so live rosters
 * follow without polling). The node's heartbeat (node-heartbeat.ts) keeps
 * its row alive, drops rows and roster entries of nodes silent for
 * NODE_STALE_MS (crashed nodes), and writes this node's members again when
 * peers swept it after a stall (docs/relay.md, Several nodes).
 */
import type {Duplex} from 'node:stream'
import type {WebSocket} from 'ws'
import type {Bus} from '../bus/bus.js'
import type {NodeHeartbeat} from '../bus/node-heartbeat.js'
import type {Logger} from '../lib/log.js'
import {clusterSubject, NODE_STALE_MS} from './constants.js'
import {encodeEnvelope} from './envelope.js'
import {createRelayHeartbeat} from './node-heartbeat.js'
import {Room} from './room.js'
import {Seats} from './seats.js'
import type {PresenceEntry, ClusterStore} from './store/store.js'
import type {BoardsPart, RelayLimits} from './types.js'
import {Wall} from './wall.js'
import {errorFrame, type ClosedReason} from './ws/frames.js'
import type {RelayMetrics} from './metrics.js'
import {Member, type MemberIdentity} from './ws/member.js'
import {Outbox} from './ws/wire.js'

export interface HubOptions {
  store: ClusterStore
  bus: Bus
  clock: () => number
  logger: Logger
  limits: RelayLimits
  boards?: BoardsPart
  metrics: RelayMetrics
}

export class Hub {
  readonly rooms = new Map<string, Room>()
  private readonly members = new Set<Member>()
  private keepaliveTimer: NodeJS.Timeout | undefined
  private stopped = false
  /** Leaves still being written, awaited on stop so their events go out before the bus closes. */
  private readonly pending = new Set<Promise<void>>()
  /** Sends of members and of the server side. */
  readonly wall: Wall
  /** Sockets written to in this tick, uncorked together at its end (ws/wire.ts). */
  private readonly outbox = new Outbox()
  /** Places held for sockets still joining (members-per-cluster limit). */
  private readonly seats = new Seats()
  /** This node's row among the relay nodes: heartbeat, peers, sweep. */
  private readonly node: NodeHeartbeat

  constructor(private readonly o: HubOptions) {
    this.wall = new Wall(this, o)
    this.node = createRelayHeartbeat(this, o)
  }

  /** The other relay nodes as the last heartbeat saw them (logs and `/health`). */
  get peers() {
    return this.node.peers
  }

  get nodeId() {
    return this.o.bus.nodeId
  }

  /** Sockets open on this node and clusters with a local member (the metrics' gauges). */
  stats() {
    let clusters = 0
    for (const room of this.rooms.values()) if (room.local.size > 0) clusters++
    return {sockets: this.members.size, clusters}
  }

  /** Presence rows older than this belong to a gone node. */
  aliveSince() {
    return this.o.clock() - NODE_STALE_MS
  }

  /** Starts keepalive pings and the node heartbeat. */
  start() {
    if (this.keepaliveTimer) return
    this.keepaliveTimer = setInterval(() => this.keepalive(), this.o.limits.pingIntervalMs).unref()
    void this.node.start().catch(() => {})
  }

  /** One node heartbeat now (the timer's work; tests call it with an injected clock). Rejects, after logging, when the store fails. */
  heartbeat(): Promise<void> {
    return this.node.beat()
  }

  /**
   * Takes an upgraded socket into its cluster; it gets `ready` once joined.
   * `socket` is the TCP socket the upgrade handed to `ws` (frames are written to it directly).
   */
  async accept(ws: WebSocket, socket: Duplex, clusterId: string, identity: MemberIdentity, releaseSeat: () => void = () => {}): Promise<void> {
    // A host that never called start() still gets keepalive and heartbeats once members arrive.
    if (!this.stopped) this.start()
    // A socket error is followed by 'close'; without a listener it would crash the process.
    ws.on('error', () => {})
    let joined!: (ok: boolean) => void
    const member = new Member(ws, socket, clusterId, identity, {
      outbox: this.outbox,
      highWaterBytes: this.o.limits.highWaterBytes,
      metrics: this.o.metrics,
      now: this.o.clock,
      onGone: (m) => this.leave(m),
      joined: new Promise<boolean>((resolve) => (joined = resolve)),
    })
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(member, data, isBinary))
    this.members.add(member)
    ws.once('close', () => this.members.delete(member))
    let room: Room | null = null
    try {
      if (this.stopped) throw new Error('relay is stopping')
      room = await this.openRoom(clusterId)
      await this.o.store.addPresence(this.presenceOf(member))
    } catch (error) {
      this.o.logger.error('join failed', {cluster_id: clusterId, error: String(error)})
      if (room) this.release(room)
      if (this.stopped) member.close('server_shutdown')
      else member.fail(errorFrame('unavailable', 'the relay cannot admit members right now; retry later'))
      releaseSeat()
      joined(false)
      return
    }
    // The cluster was deleted, or the node began to stop, while this join waited.
    if (room.closing || this.stopped) member.close(this.stopped ? 'server_shutdown' : 'deleted')
    if (member.closing) {
      // The socket went away while its row was written.
      void this.o.store.removePresence(this.nodeId, member.id).catch(() => {})
      this.release(room)
      releaseSeat()
      joined(false)
      return
    }
    room.local.set(member.id, member)
    this.release(room)
    const change = room.roster.add({socketId: member.id, nodeId: this.nodeId, agent: identity.agent, did: identity.did, vis: identity.vis})
    releaseSeat()
    member.sendFrame({type: 'ready', you: identity.agent, you_did: identity.did, public: identity.public, owner: identity.owner, online: room.roster.onlineHandles()})
    room.announce(change, member.id)
    this.publishJoin(member)
    joined(true)
  }

  /**
   * One client frame. This runs inside `ws`'s socket read: anything thrown
   * here would be an uncaught exception that stops the whole node, so a
   * frame the relay cannot handle costs only an `error` frame.
   */
  private onMessage(member: Member, data: Buffer, isBinary: boolean) {
    this.o.metrics.frameIn()
    try {
      this.wall.onClientFrame(member, data, isBinary)
    } catch (error) {
      this.o.logger.error('client frame failed', {cluster_id: member.clusterId, error: String(error)})
      member.send(errorFrame('internal_error', 'the relay could not handle this frame; it was dropped'))
    }
  }

  /**
   * The members-per-cluster limit: holds a place for one more socket, or
   * answers null when the cluster is full. The count is every node's roster
   * plus the places this node holds for sockets still joining; the place is
   * given back when the socket enters the roster or fails (call the release
   * also when the upgrade never reaches accept()). Across nodes, joins that
   * race may still pass together: each node sees the others' rows only once
   * they are written.
   */
  async reserveSeat(clusterId: string, limit: number): Promise<(() => void) | null> {
    const room = this.rooms.get(clusterId)
    const members = room && room.unsubscribe ? room.roster.size : (await this.o.store.listPresence(clusterId, this.aliveSince())).length
    // No await between the check and the taking: sockets admitted together see each other's places.
    if (members + this.seats.count(clusterId) >= limit) return null
    return this.seats.take(clusterId)
  }

  presenceOf(member: Member): PresenceEntry {
    const {agent, did, vis} = member.identity
    return {cluster_id: member.clusterId, node_id: this.nodeId, socket_id: member.id, agent, did, vis, joined_at: member.joinedAt}
  }

  publishJoin(member: Member) {
    const {agent, did, vis} = member.identity
    this.publish(member.clusterId, {k: 'join', node: this.nodeId, sid: member.id, agent, did, vis})
  }

  /** Joined, and not left since (nor its cluster closing). */
  isLocal(member: Member) {
    const room = this.rooms.get(member.clusterId)
    return room !== undefined && !room.closing && room.local.get(member.id) === member
  }

  /** Gets or opens the room: subscribe, wait until the bus server has the subscription, load the roster. */
  private async openRoom(clusterId: string): Promise<Room> {
    let room = this.rooms.get(clusterId)
    if (!room) {
      const created = new Room(clusterId, this.nodeId, {onDeleted: (r) => this.closeRoom(r, 'deleted')}, this.o.metrics)
      this.rooms.set(clusterId, created)
      created.ready = (async () => {
        await this.node.ensure()
        created.unsubscribe = this.o.bus.subscribe(clusterSubject(clusterId), (data) => {
          try {
            created.onBus(data)
          } catch (error) {
            this.o.logger.error('bus event failed', {cluster_id: clusterId, error: String(error)})
          }
        })
        await this.o.bus.flush()
        for (const e of await this.o.store.listPresence(clusterId, this.aliveSince())) {
          // Our own rows are added by our joins; a stale one is a leave whose delete is still in flight.
          if (e.node_id !== this.nodeId) created.roster.add({socketId: e.socket_id, nodeId: e.node_id, agent: e.agent, did: e.did, vis: e.vis})
        }
        created.snapshotLoaded()
      })()
      room = created
    }
    room.pendingJoins++
    try {
      await room.ready
    } catch (error) {
      this.release(room)
      throw error
    }
    return room
  }

  private release(room: Room) {
    room.pendingJoins--
    this.disposeIfEmpty(room)
  }

  private disposeIfEmpty(room: Room) {
    if (!room.empty || this.rooms.get(room.clusterId) !== room) return
    this.rooms.delete(room.clusterId)
    room.unsubscribe?.()
    room.unsubscribe = null
  }

  /** A member's socket closed or is being closed: it leaves at once. */
  private leave(member: Member) {
    const room = this.rooms.get(member.clusterId)
    if (!room || room.local.get(member.id) !== member) return
    room.local.delete(member.id)
    const change = room.roster.remove(member.id)
    if (!room.closing) {
      room.announce(change)
      // Row first, event second: a node that subscribes in between reads a snapshot without the row.
      const leaving = this.o.store
        .removePresence(this.nodeId, member.id)
        .catch((error) => this.o.logger.warn('presence removal failed', {error: String(error)}))
        .then(() => this.publish(member.clusterId, {k: 'leave', node: this.nodeId, sid: member.id}))
      this.pending.add(leaving)
      void leaving.finally(() => this.pending.delete(leaving))
    }
    this.disposeIfEmpty(room)
  }

  /** Tells the other nodes (those with members in the cluster). */
  publish(clusterId: string, header: Parameters<typeof encodeEnvelope>[0], frame?: Buffer) {
    try {
      this.o.bus.publish(clusterSubject(clusterId), encodeEnvelope(header, frame))
    } catch (error) {
      // A bus that is closed, draining or refuses the size throws synchronously (nats.js); local
      // members were already served, and a throw here would skip the sender's ack or a leave.
      this.o.logger.warn('bus publish failed', {cluster_id: clusterId, kind: header.k, error: String(error)})
    }
  }

  /** The cluster is gone (already removed from the store): close its sockets here and on every node. */
  clusterDeleted(clusterId: string) {
    this.publish(clusterId, {k: 'deleted', node: this.nodeId})
    const room = this.rooms.get(clusterId)
    if (room) this.closeRoom(room, 'deleted')
  }

  private closeRoom(room: Room, reason: ClosedReason) {
    room.closing = true
    for (const member of [...room.local.values()]) member.close(reason)
    this.disposeIfEmpty(room)
  }

  /** spec: keepalive is automatic — a socket that missed the last ping is closed. */
  private keepalive() {
    for (const room of this.rooms.values()) {
      for (const member of [...room.local.values()]) {
        if (!member.alive) member.close('idle')
        else {
          member.alive = false
          member.ws.ping()
        }
      }
    }
  }

  /** Node stop: every socket gets `closed {reason: 'server_shutdown'}`, peers on other nodes see them leave. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    clearInterval(this.keepaliveTimer)
    await this.node.stop()
    const members = [...this.members]
    const closed = members.map(({ws}) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()))))
    // Joined or still joining: each gets the frame; those joining see `closing` when their join resumes.
    for (const member of members) member.close('server_shutdown')
    this.outbox.flush()
    await Promise.all(closed)
    await Promise.all(this.pending)
    await this.o.bus.flush().catch(() => {})
    await this.node.leave()
  }
}
