/**
 * One cluster as seen by this node: its local member sockets, the roster of
 * every node, and the delivery of frames to the local sockets. A room exists
 * only while the node has a local member (or one joining): only then is the
 * node subscribed to the cluster's subject.
 */
import {decodeEnvelope, type EnvelopeHeader} from './envelope.js'
import {NO_RELAY_METRICS, type RelayMetrics} from './metrics.js'
import {Roster, type HandleChange} from './roster.js'
import {presenceFrame} from './ws/frames.js'
import type {Member} from './ws/member.js'
import {textFrame} from './ws/wire.js'

export interface RoomEvents {
  /** Another node reported the cluster deleted. */
  onDeleted(room: Room): void
}

export class Room {
  readonly local = new Map<string, Member>()
  readonly roster = new Roster()
  /** Joins between "room opened" and "member added"; the room stays while any is pending. */
  pendingJoins = 0
  /** Set when the cluster is deleted or the node stops: leaves are no longer announced. */
  closing = false
  /** Subscribed and the roster snapshot loaded. */
  ready: Promise<void> = Promise.resolve()
  unsubscribe: (() => void) | null = null
  /** Bus traffic received while the roster snapshot loads; applied after it, in order. */
  private backlog: Array<{header: EnvelopeHeader; frame: Buffer}> | null = []

  constructor(
    readonly clusterId: string,
    private readonly nodeId: string,
    private readonly events: RoomEvents,
    private readonly metrics: RelayMetrics = NO_RELAY_METRICS,
  ) {}

  get empty() {
    return this.local.size === 0 && this.pendingJoins === 0
  }

  /** Sends the same bytes — framed once — to every local socket except the sender's. */
  deliverAll(frame: Buffer, exceptSocket?: string): void {
    if (this.local.size === 0) return
    const wire = textFrame(frame)
    let delivered = 0
    for (const member of this.local.values()) if (member.id !== exceptSocket && member.sendWire(wire, frame)) delivered++
    this.metrics.fanout(delivered)
  }

  /**
   * A direct message goes to every socket of the handle (DECISIONS: duplicate
   * handles), ghosts included, and to the owner sockets (DECISIONS: owner
   * monitor view), never back to the sending socket.
   */
  deliverDirect(frame: Buffer, to: string, exceptSocket?: string): void {
    let wire: Buffer | undefined
    let delivered = 0
    for (const member of this.local.values()) {
      if (member.id === exceptSocket) continue
      if (member.identity.agent === to || member.identity.owner) {
        if (member.sendWire((wire ??= textFrame(frame)), frame)) delivered++
      }
    }
    this.metrics.fanout(delivered)
  }

  /** Tells local sockets about a handle coming or going (spec: presence frame to peers). */
  announce(change: HandleChange, exceptSocket?: string): void {
    if (!change || this.closing) return
    this.deliverAll(presenceFrame(change.agent, change.did, change.status), exceptSocket)
  }

  /** Bus handler of this cluster's subject. */
  onBus(data: Uint8Array): void {
    const envelope = decodeEnvelope(data)
    if (!envelope || envelope.header.node === this.nodeId) return
    if (this.backlog) this.backlog.push(envelope)
    else this.apply(envelope.header, envelope.frame)
  }

  /** Called once the roster snapshot is loaded: replays what arrived meanwhile. */
  snapshotLoaded(): void {
    const backlog = this.backlog ?? []
    this.backlog = null
    for (const {header, frame} of backlog) this.apply(header, frame)
  }

  private apply(header: EnvelopeHeader, frame: Buffer): void {
    switch (header.k) {
      case 'join':
        this.announce(this.roster.add({socketId: header.sid, nodeId: header.node, agent: header.agent, did: header.did, vis: header.vis}))
        return
      case 'leave':
        this.announce(this.roster.remove(header.sid))
        return
      case 'msg':
        if (header.to === null) this.deliverAll(frame)
        else this.deliverDirect(frame, header.to)
        return
      case 'deleted':
        this.events.onDeleted(this)
        return
    }
  }
}
