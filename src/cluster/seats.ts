/**
 * Places held in each cluster for sockets that passed the members-per-cluster
 * check but are not in the roster yet (upgrade, join, presence row). Counting
 * them makes the check and the taking of a place one step on this node, so
 * sockets that arrive together cannot all pass on the same stale count.
 */
export class Seats {
  private readonly held = new Map<string, number>()

  /** Places held in a cluster. */
  count(clusterId: string): number {
    return this.held.get(clusterId) ?? 0
  }

  /** Holds one place; the returned function gives it back (once, however often it is called). */
  take(clusterId: string): () => void {
    this.held.set(clusterId, this.count(clusterId) + 1)
    let given = false
    return () => {
      if (given) return
      given = true
      const left = this.count(clusterId) - 1
      if (left > 0) this.held.set(clusterId, left)
      else this.held.delete(clusterId)
    }
  }
}
