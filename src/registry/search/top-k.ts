/**
 * Keeps the k best items seen so far in a binary min-heap, so ranking 100,000
 * scored documents costs O(n log k) instead of a full sort. Order: higher
 * score first; equal scores by lower `tie` (a stable number per item, so the
 * order is the same on every node and in every call).
 */
export class TopK<T> {
  private readonly heap: Array<{item: T; score: number; tie: number}> = []

  constructor(private readonly k: number) {}

  /** Items kept so far. */
  get size(): number {
    return this.heap.length
  }

  /** The lowest kept score (-Infinity when empty). */
  get worstScore(): number {
    return this.heap.length === 0 ? Number.NEGATIVE_INFINITY : this.heap[0].score
  }

  /** The tie value of the lowest kept item (+Infinity when empty). */
  get worstTie(): number {
    return this.heap.length === 0 ? Number.POSITIVE_INFINITY : this.heap[0].tie
  }

  /** True when an item with this score and tie would be kept. */
  admits(score: number, tie: number): boolean {
    if (this.k <= 0) return false
    if (this.heap.length < this.k) return true
    const worst = this.heap[0]
    return score > worst.score || (score === worst.score && tie < worst.tie)
  }

  private better(i: number, j: number): boolean {
    const a = this.heap[i]
    const b = this.heap[j]
    return a.score > b.score || (a.score === b.score && a.tie < b.tie)
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]
    this.heap[i] = this.heap[j]
    this.heap[j] = t
  }

  /** Offers an item; kept when the heap is not full or it beats the worst kept. */
  push(item: T, score: number, tie: number): void {
    if (!this.admits(score, tie)) return
    if (this.heap.length < this.k) {
      this.heap.push({item, score, tie})
      for (let i = this.heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1
        if (!this.better(parent, i)) break
        this.swap(parent, i)
        i = parent
      }
      return
    }
    this.heap[0] = {item, score, tie}
    for (let i = 0; ; ) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < this.heap.length && this.better(smallest, left)) smallest = left
      if (right < this.heap.length && this.better(smallest, right)) smallest = right
      if (smallest === i) break
      this.swap(i, smallest)
      i = smallest
    }
  }

  /** The kept items, best first. */
  sorted(): Array<{item: T; score: number}> {
    return [...this.heap].sort((a, b) => b.score - a.score || a.tie - b.tie).map(({item, score}) => ({item, score}))
  }
}
