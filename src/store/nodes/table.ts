/**
 * Node liveness in the shared store, one shape for every area that keeps
 * per-node rows (the relay's cluster presence, messaging's socket presence):
 * a nodes table of heartbeats (node_id, seen_at) and a presence table whose
 * rows hang on a node_id. A node beats, reads the others, and sweeps those
 * silent too long together with their presence. This file holds the
 * interface and the in-memory table; sqlite.ts and postgres.ts hold the
 * durable ones (test/store/nodes.contract.ts proves them the same).
 */

/** A node's heartbeat row: its id and when it last wrote (epoch ms). */
export interface NodeSeen {
  node_id: string
  seen_at: number
}

/** A node a sweep removed, with how many of its presence rows went with it. */
export interface SweptNode {
  node_id: string
  members: number
}

/** The nodes table of one area and the cleanup of its presence rows. */
export interface NodeTable {
  /**
   * Marks a node alive at `at` (epoch ms). Resolves false when the node had
   * no row (its first beat, or swept after a stall): its presence rows went
   * with it, so the node writes and announces them again.
   */
  touchNode(nodeId: string, at: number): Promise<boolean>
  /** Every node's last heartbeat, live or not (the peers of `/health`), by node id. */
  listNodes(): Promise<NodeSeen[]>
  /** Node ids whose last heartbeat is at or after `since`. */
  listLiveNodes(since: number): Promise<string[]>
  /** Removes a node and all its presence rows (clean stop). */
  removeNode(nodeId: string): Promise<void>
  /**
   * Removes nodes not seen since `staleBefore`, and their presence rows
   * (crashed nodes). Answers the nodes this call removed with their row
   * counts: of several nodes sweeping at once, only one reports a node.
   */
  sweepNodes(staleBefore: number): Promise<SweptNode[]>
}

/** The two tables of an area, e.g. `cluster_nodes` and `cluster_presence`. */
export interface NodeTableNames {
  nodes: string
  presence: string
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** The names go into SQL text: only plain lower-case identifiers pass. */
export function checkTableNames(names: NodeTableNames): NodeTableNames {
  for (const name of [names.nodes, names.presence]) if (!TABLE_NAME.test(name)) throw new TypeError(`Invalid table name: ${name}`)
  return names
}

/** How an in-memory area store holds its presence rows, for the table to count and drop them per node. */
export interface MemoryPresence {
  count(nodeId: string): number
  drop(nodeId: string): void
}

export interface MemoryNodeTable extends NodeTable {
  /** Whether the node beat at or after `since` (the area's live-presence filters). */
  isLive(nodeId: string, since: number): boolean
}

/** The in-memory nodes table over an area's own presence map. */
export function createMemoryNodeTable(presence: MemoryPresence): MemoryNodeTable {
  const nodes = new Map<string, number>()
  const removeNode = (nodeId: string) => {
    nodes.delete(nodeId)
    presence.drop(nodeId)
  }
  return {
    async touchNode(nodeId, at) {
      const known = nodes.has(nodeId)
      nodes.set(nodeId, at)
      return known
    },
    async listNodes() {
      return [...nodes].map(([node_id, seen_at]) => ({node_id, seen_at})).sort((a, b) => a.node_id.localeCompare(b.node_id))
    },
    async listLiveNodes(since) {
      return [...nodes].filter(([, seen]) => seen >= since).map(([id]) => id)
    },
    async removeNode(nodeId) {
      removeNode(nodeId)
    },
    async sweepNodes(staleBefore) {
      const swept: SweptNode[] = []
      for (const [id, seen] of [...nodes]) {
        if (seen >= staleBefore) continue
        swept.push({node_id: id, members: presence.count(id)})
        removeNode(id)
      }
      return swept
    },
    isLive: (nodeId, since) => (nodes.get(nodeId) ?? -Infinity) >= since,
  }
}
