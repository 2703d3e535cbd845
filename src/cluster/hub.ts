/**
 * The live side of the relay on one node: rooms, joins and leaves, sends,
 * deletion and shutdown, and the node's share of presence across nodes.
 *
 * Several nodes: each cluster has one bus subject; a node subscribes only
 * while it has a local member of that cluster. Presence rows live in the
 * store keyed by node (so `ready.online`, catalog counts and member limits see
 * every node) and join/leave events travel on the subject (so live rosters
 * follow without polling). A node heartbeats in the store; rows and roster
 * entries of a node silent for NODE_STALE_MS are dropped (crashed node). A
 * node that finds itself swept (it stalled, it was not dead) writes its
 * members' rows and joins again (docs/relay.md, Several nodes).
 */
import type {Duplex} from 'node:stream'
import type {WebSocket} from 'ws'
import type {Bus} from '../bus/bus.js'
import {createPeerWatch, type NodeSeen, type PeerWatch} from '../bus/peers.js'
import type {Logger} from '../lib/log.js'
import {clusterSubject, NODE_HEARTBEAT_MS, NODE_STALE_MS} from './constants.js'
import {encodeEnvelope} from './envelope.js'
import {Room} from './room.js'
import {Seats} from './seats.js'
import type {PresenceEntry, ClusterStore} from './store/store.js'
import type {BoardsPart, RelayLimits} from './types.js'
import {Wall} from './wall.js'
import {errorFrame, type ClosedReason} from './ws/frames.js'
import {Member, type MemberIdentity} from './ws/member.js'
import {Outbox} from './ws/wire.js'

export interface HubOptions {
  store: ClusterStore
  bus: Bus
  clock: () => number
  logger: Logger
  limits: RelayLimits
  boards?: BoardsPart
}

export class Hub {
  readonly rooms = new Map<string, Room>()
  private readonly members = new Set<Member>()
  private nodeAlive: Promise<void> | null = null
  private timers: NodeJS.Timeout[] = []
  private stopped = false
  /** Leaves still being written, awaited on stop so their events go out before the bus closes. */
  private readonly pending = new Set<Promise<void>>()
  /** Sends of members and of the server side. */
  readonly wall: Wall
  /** Sockets written to in this tick, uncorked together at its end (ws/wire.ts). */
  private readonly outbox = new Outbox()
  /** Places held for sockets still joining (members-per-cluster limit). */
  private readonly seats = new Seats()
  /** The other relay nodes as the last heartbeat saw them (logs and `/health`). */
  readonly peers: PeerWatch
  /** A beat found this node's row gone: its members are hidden from peers until announced again. */
  private swept = false
  /** The clock-behind warning of the current sweep, logged once. */
  private behindLogged = false

  constructor(private readonly o: HubOptions) {
    this.wall = new Wall(this, o)
    this.peers = createPeerWatch({nodeId: o.bus.nodeId, staleMs: NODE_STALE_MS, logger: o.logger, area: 'relay'})
  }

  get nodeId() {
    return this.o.bus.nodeId
  }

  /** Presence rows older than this belong to a gone node. */
  aliveSince() {
    return this.o.clock() - NODE_STALE_MS
  }

  /** Starts keepalive pings and the node heartbeat. */
  start() {
    if (this.timers.length) return
    this.timers.push(setInterval(() => this.keepalive(), this.o.limits.pingIntervalMs).unref())
    this.timers.push(setInterval(() => void this.heartbeat().catch(() => {}), NODE_HEARTBEAT_MS).unref())
    // The first full beat right away: /health lists the peers from the start.
    void this.ensureNode()
      .then(() => this.heartbeat())
      .catch(() => {})
  }

  /** The node's first heartbeat, before any of its presence rows can count. */
  ensureNode(): Promise<void> {
    this.nodeAlive ??= this.o.store.heartbeatNode(this.nodeId, this.o.clock()).then(
      () => {},
      (error) => {
        this.nodeAlive = null
        throw error
      },
    )
    return this.nodeAlive
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

  private presenceOf(member: Member): PresenceEntry {
    const {agent, did, vis} = member.identity
    return {cluster_id: member.clusterId, node_id: this.nodeId, socket_id: member.id, agent, did, vis, joined_at: member.joinedAt}
  }

  private publishJoin(member: Member) {
    const {agent, did, vis} = member.identity
    this.publish(member.clusterId, {k: 'join', node: this.nodeId, sid: member.id, agent, did, vis})
  }

  /** Joined, and not left since (nor its cluster closing). */
  private isLocal(member: Member) {
    const room = this.rooms.get(member.clusterId)
    return room !== undefined && !room.closing && room.local.get(member.id) === member
  }

  /** Gets or opens the room: subscribe, wait until the bus server has the subscription, load the roster. */
  private async openRoom(clusterId: string): Promise<Room> {
    let room = this.rooms.get(clusterId)
    if (!room) {
      const created = new Room(clusterId, this.nodeId, {onDeleted: (r) => this.closeRoom(r, 'deleted')})
      this.rooms.set(clusterId, created)
      created.ready = (async () => {
        await this.ensureNode()
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

  /**
   * One node heartbeat: marks this node alive, reads every node's row (the
   * peer watch logs changes), sweeps nodes silent for NODE_STALE_MS with
   * their presence, and drops their members from live rosters. When this
   * node's own row was gone (peers swept it after a stall), it writes its
   * members' rows again and, once its row is seen live, publishes their joins
   * again. Runs every NODE_HEARTBEAT_MS; tests call it with an injected clock.
   * Rejects (after logging) when the store fails.
   */
  async heartbeat(): Promise<void> {
    const now = this.o.clock()
    try {
      // Stays set until the joins are out: a beat that fails half-way leaves it for the next one.
      if (!(await this.o.store.heartbeatNode(this.nodeId, now))) this.swept = true
      const nodes = await this.o.store.listNodes()
      this.peers.observe(nodes, now)
      const rewritten = this.swept && !this.stopped && this.inStep(nodes, now) ? await this.rewritePresence() : null
      this.peers.swept(await this.o.store.sweepNodes(now - NODE_STALE_MS))
      // Read after the sweep, right before the rosters: a node that started meanwhile keeps its members.
      const liveNodes = await this.o.store.listLiveNodes(now - NODE_STALE_MS)
      // Swept again since our beat (a slow write, a peer's clock ahead): the rows just written hang on no
      // node row and peers would drop the members at their next beat. The next beat finds the row gone again.
      if (rewritten && liveNodes.includes(this.nodeId)) this.announceAgain(rewritten)
      const live = new Set(liveNodes)
      live.add(this.nodeId)
      for (const room of this.rooms.values()) {
        for (const socketId of room.roster.socketsOutside(live)) room.announce(room.roster.remove(socketId))
      }
    } catch (error) {
      this.o.logger.warn('presence heartbeat failed', {error: String(error)})
      throw error
    }
  }

  /**
   * Whether this node's row, written at `now`, stays live for every peer. A
   * peer whose last beat is more than NODE_STALE_MS ahead of our clock sweeps
   * it at each of its beats: announcing the members would only make them
   * flap online and offline, so they stay hidden and this is logged once.
   */
  private inStep(nodes: NodeSeen[], now: number): boolean {
    const ahead = Math.max(0, ...nodes.filter((n) => n.node_id !== this.nodeId).map((n) => n.seen_at)) - now
    if (ahead <= NODE_STALE_MS) return true
    if (!this.behindLogged) this.o.logger.warn('node clock behind peers; members not announced again', {area: 'relay', node_id: this.nodeId, behind_ms: ahead})
    this.behindLogged = true
    return false
  }

  /**
   * Writes the presence row of every local member again (a sweep removed
   * them) and answers the members still here once written.
   */
  private async rewritePresence(): Promise<Member[]> {
    const members = [...this.rooms.values()].flatMap((room) => (room.closing ? [] : [...room.local.values()]))
    await Promise.all(members.map((member) => this.o.store.addPresence(this.presenceOf(member))))
    // One that left meanwhile may have had its row removed before ours landed: remove it after ours.
    const left = members.filter((member) => !this.isLocal(member))
    await Promise.all(left.map((member) => this.o.store.removePresence(this.nodeId, member.id)))
    return members.filter((member) => this.isLocal(member))
  }

  /**
   * Publishes the joins of members whose rows were written again: peers that
   * dropped them show them `online` again; a peer that still lists a socket
   * ignores its join (rosters are keyed by socket), so nobody sees it twice.
   */
  private announceAgain(members: Member[]) {
    this.swept = false
    this.behindLogged = false
    // Row first, event second, as in a join. One that left since removed its row after ours and sent its leave: no join.
    const here = members.filter((member) => this.isLocal(member))
    for (const member of here) this.publishJoin(member)
    if (here.length) this.o.logger.info('node was swept; members announced again', {area: 'relay', node_id: this.nodeId, members: here.length})
  }

  /** Node stop: every socket gets `closed {reason: 'server_shutdown'}`, peers on other nodes see them leave. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    for (const timer of this.timers) clearInterval(timer)
    const members = [...this.members]
    const closed = members.map(({ws}) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()))))
    // Joined or still joining: each gets the frame; those joining see `closing` when their join resumes.
    for (const member of members) member.close('server_shutdown')
    this.outbox.flush()
    await Promise.all(closed)
    await Promise.all(this.pending)
    await this.o.bus.flush().catch(() => {})
    await this.o.store.removeNode(this.nodeId).catch((error) => this.o.logger.warn('presence cleanup failed', {error: String(error)}))
  }
}
