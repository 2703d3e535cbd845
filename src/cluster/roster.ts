/**
 * Who is in one cluster, across every node: one entry per open socket.
 * Peers see handles, not sockets (DECISIONS: duplicate handles are allowed),
 * so presence changes are reported per handle: `online` when a handle's
 * first visible socket appears, `offline` when its last one goes. Ghosts are
 * held (they are sockets) but never seen or counted (spec: visibility table).
 */
import type {MemberVis} from './types.js'

export interface RosterEntry {
  socketId: string
  nodeId: string
  agent: string
  did: string | null
  vis: MemberVis
}

/** A handle-level change to announce, or null when peers see no change. */
export type HandleChange = {agent: string; did: string | null; status: 'online' | 'offline'} | null

export class Roster {
  private readonly sockets = new Map<string, RosterEntry>()
  /** Visible sockets per handle, in order of first appearance. */
  private readonly visible = new Map<string, {count: number; did: string | null}>()
  /** Visible (non-ghost) sockets in all: acks count recipients per message, so this stays O(1). */
  private visibleSockets = 0

  get size() {
    return this.sockets.size
  }

  has(socketId: string) {
    return this.sockets.has(socketId)
  }

  /** Adds a socket (idempotent); reports the handle coming online. */
  add(entry: RosterEntry): HandleChange {
    if (this.sockets.has(entry.socketId)) return null
    this.sockets.set(entry.socketId, entry)
    if (entry.vis === 'ghost') return null
    this.visibleSockets++
    const seen = this.visible.get(entry.agent)
    if (seen) {
      seen.count++
      return null
    }
    this.visible.set(entry.agent, {count: 1, did: entry.did})
    return {agent: entry.agent, did: entry.did, status: 'online'}
  }

  /** Removes a socket; reports the handle going offline when it was its last visible socket. */
  remove(socketId: string): HandleChange {
    const entry = this.sockets.get(socketId)
    if (!entry) return null
    this.sockets.delete(socketId)
    if (entry.vis === 'ghost') return null
    this.visibleSockets--
    const seen = this.visible.get(entry.agent)
    if (!seen) return null
    if (--seen.count > 0) return null
    this.visible.delete(entry.agent)
    return {agent: entry.agent, did: seen.did, status: 'offline'}
  }

  /** Entries of nodes not in `liveNodes` (crashed nodes), for removal. */
  socketsOutside(liveNodes: Set<string>): string[] {
    return [...this.sockets.values()].filter((e) => !liveNodes.has(e.nodeId)).map((e) => e.socketId)
  }

  /** spec: `ready.online` — visible handles, each once. */
  onlineHandles(): string[] {
    return [...this.visible.keys()]
  }

  /** Visible sockets, optionally of one handle, not counting `exceptSocket` (the sender). */
  countVisible(agent: string | null, exceptSocket?: string): number {
    const total = agent === null ? this.visibleSockets : (this.visible.get(agent)?.count ?? 0)
    const except = exceptSocket === undefined ? undefined : this.sockets.get(exceptSocket)
    const counted = except !== undefined && except.vis !== 'ghost' && (agent === null || except.agent === agent)
    return counted ? total - 1 : total
  }
}
