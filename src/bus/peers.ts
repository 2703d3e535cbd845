/**
 * One node's view of the other nodes of its deployment, from the heartbeat
 * rows they write in the shared store. The node heartbeat (node-heartbeat.ts)
 * of the relay (presence nodes) and of the registry's messaging layer (socket
 * nodes) each keeps one: it logs each
 * change of a peer once (up, silent, swept, back, left) and answers the
 * `peers` of `/health` (docs/relay.md and docs/messaging.md "Health").
 */
import type {Logger} from '../lib/log.js'
import type {NodeSeen, SweptNode} from '../store/nodes/table.js'

/** One peer as `/health` shows it. */
export interface PeerView {
  node_id: string
  /** ISO time of its last heartbeat. */
  last_seen: string
  /** Heard within the stale window; a peer that is not live is about to be swept. */
  live: boolean
}

export interface PeerWatchOptions {
  /** This node: never its own peer. */
  nodeId: string
  /** A peer not heard for this long is silent (the area's NODE_STALE_MS). */
  staleMs: number
  logger: Logger
  /** Which node table this is, in every log line: `relay` or `messaging`. */
  area: string
}

interface Peer {
  seenAt: number
  live: boolean
  /** Its row is in the store (false once swept or removed; kept to recognise a return). */
  present: boolean
  /** Its sweep was logged since it was last live (a flapping peer is logged once). */
  sweptLogged: boolean
}

/** Peers no longer in the store that are remembered, so one that returns is logged as back. */
const GONE_REMEMBERED = 256

export interface PeerWatch {
  /** Takes every heartbeat row of the table (this node's included), read at `now`. */
  observe(rows: NodeSeen[], now: number): void
  /** Takes the nodes this node's sweep just removed. */
  swept(nodes: SweptNode[]): void
  /** The peers in the store at the last observation, by node id. */
  peers(): PeerView[]
  /** ISO time of the last observation, null before the first. */
  checkedAt(): string | null
}

export function createPeerWatch(options: PeerWatchOptions): PeerWatch {
  const {nodeId, staleMs, logger, area} = options
  const peers = new Map<string, Peer>()
  let checked: number | null = null
  const iso = (ms: number) => new Date(ms).toISOString()
  const fields = (id: string, peer: Peer, now?: number) => ({
    area,
    node_id: id,
    last_seen: iso(peer.seenAt),
    ...(now === undefined ? {} : {silent_ms: Math.max(0, now - peer.seenAt)}),
  })

  const forgetOldest = () => {
    let gone = 0
    for (const peer of peers.values()) if (!peer.present) gone++
    for (const [id, peer] of peers) {
      if (gone <= GONE_REMEMBERED) break
      if (!peer.present) {
        peers.delete(id)
        gone--
      }
    }
  }

  return {
    observe(rows, now) {
      checked = now
      const seen = new Set<string>()
      for (const row of rows) {
        if (row.node_id === nodeId) continue
        seen.add(row.node_id)
        const live = row.seen_at >= now - staleMs
        const known = peers.get(row.node_id)
        if (!known) {
          const peer: Peer = {seenAt: row.seen_at, live, present: true, sweptLogged: false}
          peers.set(row.node_id, peer)
          if (live) logger.info('peer node up', fields(row.node_id, peer))
          else logger.info('peer node silent', fields(row.node_id, peer, now))
          continue
        }
        const silentMs = now - known.seenAt
        const wasLive = known.live
        known.seenAt = row.seen_at
        known.present = true
        known.live = live
        if (wasLive && !live) logger.info('peer node silent', fields(row.node_id, known, now))
        else if (!wasLive && live) {
          known.sweptLogged = false
          logger.info('peer node back', {...fields(row.node_id, known), silent_ms: Math.max(0, silentMs)})
        }
      }
      // Rows gone without this node's sweep: another node swept a silent peer, or the peer stopped cleanly.
      for (const [id, peer] of peers) {
        if (!peer.present || seen.has(id)) continue
        peer.present = false
        if (!peer.live) continue
        peer.live = false
        if (now - peer.seenAt >= staleMs) logger.info('peer node silent', fields(id, peer, now))
        else logger.info('peer node left', fields(id, peer))
      }
      forgetOldest()
    },
    swept(nodes) {
      for (const node of nodes) {
        if (node.node_id === nodeId) continue
        let peer = peers.get(node.node_id)
        if (!peer) peers.set(node.node_id, (peer = {seenAt: 0, live: false, present: false, sweptLogged: false}))
        peer.present = false
        peer.live = false
        // A peer whose rows keep coming back stale (a skewed clock) is swept every beat: logged once.
        if (peer.sweptLogged) logger.debug('peer node swept again', {area, node_id: node.node_id, members: node.members})
        else logger.info('peer node swept', {area, node_id: node.node_id, members: node.members})
        peer.sweptLogged = true
      }
    },
    peers() {
      return [...peers]
        .filter(([, peer]) => peer.present)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, peer]) => ({node_id: id, last_seen: iso(peer.seenAt), live: peer.live}))
    },
    checkedAt: () => (checked === null ? null : iso(checked)),
  }
}
