/**
 * Keeps the k best items seen so far in a binary min-heap, so ranking 100,000
 * scored documents costs O(n log k) instead of a full sort.
 */
export class TopK<T> {
  private readonly heap: Array<{item: T; score: number}> = []

  constructor(
    private readonly k: number,
    /** Tie-break for equal scores: true when `a` ranks above `b` (stable, deterministic order). */
    private readonly before: (a: T, b: T) => boolean = () => false,
  ) {}

  private better(i: number, j: number): boolean {
    const a = this.heap[i]
    const b = this.heap[j]
    return a.score > b.score || (a.score === b.score && this.before(a.item, b.item))
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]
    this.heap[i] = this.heap[j]
    this.heap[j] = t
  }

  /** Offers an item; kept when the heap is not full or it beats the worst kept. */
  push(item: T, score: number): void {
    if (this.k <= 0) return
    if (this.heap.length < this.k) {
      this.heap.push({item, score})
      for (let i = this.heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1
        if (!this.better(parent, i)) break
        this.swap(parent, i)
        i = parent
      }
      return
    }
    const worst = this.heap[0]
    if (score < worst.score || (score === worst.score && !this.before(item, worst.item))) return
    this.heap[0] = {item, score}
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
    return [...this.heap].sort((a, b) => b.score - a.score || (this.before(a.item, b.item) ? -1 : this.before(b.item, a.item) ? 1 : 0))
  }
}
