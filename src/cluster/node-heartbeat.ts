/**
 * The relay node's heartbeat: the shared node heartbeat (src/bus/node-heartbeat.ts)
 * over the `cluster_nodes` table, with what is the relay's own — the
 * presence rows of its local members, written and announced again when peers
 * swept this node after a stall, and the live rosters, from which members of
 * swept nodes are dropped (docs/relay.md, Several nodes).
 */
import {createNodeHeartbeat, type NodeHeartbeat} from '../bus/node-heartbeat.js'
import type {Logger} from '../lib/log.js'
import {NODE_HEARTBEAT_MS, NODE_STALE_MS} from './constants.js'
import type {Room} from './room.js'
import type {ClusterStore, PresenceEntry} from './store/store.js'
import type {Member} from './ws/member.js'

/** What the heartbeat needs of the hub's live state. */
export interface LocalMembers {
  readonly nodeId: string
  readonly rooms: Map<string, Room>
  /** Joined, and not left since (nor its cluster closing). */
  isLocal(member: Member): boolean
  presenceOf(member: Member): PresenceEntry
  /** Tells the other nodes the member is here (row first, event second). */
  publishJoin(member: Member): void
}

export function createRelayHeartbeat(hub: LocalMembers, options: {store: ClusterStore; clock: () => number; logger: Logger}): NodeHeartbeat {
  const {store} = options

  /** Writes the presence row of every local member again and answers the members still here once written. */
  async function rewritePresence(): Promise<Member[]> {
    const members = [...hub.rooms.values()].flatMap((room) => (room.closing ? [] : [...room.local.values()]))
    await Promise.all(members.map((member) => store.addPresence(hub.presenceOf(member))))
    // One that left meanwhile may have had its row removed before ours landed: remove it after ours.
    const left = members.filter((member) => !hub.isLocal(member))
    await Promise.all(left.map((member) => store.removePresence(hub.nodeId, member.id)))
    return members.filter((member) => hub.isLocal(member))
  }

  return createNodeHeartbeat({
    nodeId: hub.nodeId,
    table: store,
    clock: options.clock,
    logger: options.logger,
    area: 'relay',
    intervalMs: NODE_HEARTBEAT_MS,
    staleMs: NODE_STALE_MS,
    async rewrite() {
      const members = await rewritePresence()
      // Peers that dropped them show them `online` again; a peer that still lists a socket ignores its
      // join (rosters are keyed by socket). One that left since removed its row and sent its leave: no join.
      return () => {
        const here = members.filter((member) => hub.isLocal(member))
        for (const member of here) hub.publishJoin(member)
        return here.length
      }
    },
    afterSweep(live) {
      for (const room of hub.rooms.values()) {
        for (const socketId of room.roster.socketsOutside(live)) room.announce(room.roster.remove(socketId))
      }
    },
  })
}
