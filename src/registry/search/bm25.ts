/**
 * A fielded BM25 (BM25F) inverted index held in memory. Each document is a
 * key, a list of term lists (one per field) and a payload the caller reads
 * back at query time. Replacing or removing a document leaves a tombstone
 * (its slot is dead) rather than editing posting lists in place; postings
 * are compacted once tombstones pass a share of all slots, so updates stay
 * O(terms of the document) and queries never see a half-edited list.
 */

export interface FieldSpec {
  name: string
  /** Multiplier on the field's term frequency. */
  weight: number
  /** Length normalisation, 0 (none) … 1 (full). */
  b: number
}

interface Postings {
  /** Slots holding the term, in insertion order. */
  slots: number[]
  /** Per posting, one term frequency per field (slots.length × fieldCount). */
  tfs: number[]
  /** Live documents holding the term (document frequency). */
  live: number
}

/** One scored document of a query, before any caller-side filtering. */
export interface Hit<T> {
  payload: T
  score: number
}

export interface Bm25Options {
  fields: readonly FieldSpec[]
  k1: number
  /** Compact once dead slots exceed this share of all slots. */
  compactRatio: number
}

export class FieldedBm25<T> {
  private readonly fields: readonly FieldSpec[]
  private readonly k1: number
  private readonly compactRatio: number
  private readonly postings = new Map<string, Postings>()
  private readonly slotOfKey = new Map<string, number>()
  private payloads: (T | undefined)[] = []
  private slotTerms: (string[] | undefined)[] = []
  /** slot × field lengths, flat. */
  private lengths: number[] = []
  private readonly totalLength: number[]
  private liveCount = 0
  private deadCount = 0
  private scores = new Float64Array(0)

  constructor(options: Bm25Options) {
    this.fields = options.fields
    this.k1 = options.k1
    this.compactRatio = options.compactRatio
    this.totalLength = options.fields.map(() => 0)
  }

  /** Live documents. */
  get size(): number {
    return this.liveCount
  }

  has(key: string): boolean {
    return this.slotOfKey.has(key)
  }

  payloadOf(key: string): T | undefined {
    const slot = this.slotOfKey.get(key)
    return slot === undefined ? undefined : this.payloads[slot]
  }

  /** Replaces the payload without touching the text (qualities, liveness). */
  setPayload(key: string, payload: T): boolean {
    const slot = this.slotOfKey.get(key)
    if (slot === undefined) return false
    this.payloads[slot] = payload
    return true
  }

  /** Every live payload, in no particular order. */
  *all(): IterableIterator<T> {
    for (const slot of this.slotOfKey.values()) yield this.payloads[slot]!
  }

  /** Adds or replaces a document; `fieldTerms[i]` are the terms of `fields[i]`. */
  upsert(key: string, fieldTerms: readonly (readonly string[])[], payload: T): void {
    this.remove(key)
    const slot = this.payloads.length
    const fieldCount = this.fields.length
    const counts = new Map<string, number[]>()
    for (let f = 0; f < fieldCount; f++) {
      const terms = fieldTerms[f] ?? []
      this.lengths.push(terms.length)
      this.totalLength[f] += terms.length
      for (const term of terms) {
        let perField = counts.get(term)
        if (!perField) counts.set(term, (perField = new Array<number>(fieldCount).fill(0)))
        perField[f]++
      }
    }
    for (const [term, perField] of counts) {
      let list = this.postings.get(term)
      if (!list) this.postings.set(term, (list = {slots: [], tfs: [], live: 0}))
      list.slots.push(slot)
      for (const tf of perField) list.tfs.push(tf)
      list.live++
    }
    this.payloads.push(payload)
    this.slotTerms.push([...counts.keys()])
    this.slotOfKey.set(key, slot)
    this.liveCount++
  }

  /** Removes a document; true when it was there. */
  remove(key: string): boolean {
    const slot = this.slotOfKey.get(key)
    if (slot === undefined) return false
    this.slotOfKey.delete(key)
    for (const term of this.slotTerms[slot]!) this.postings.get(term)!.live--
    for (let f = 0; f < this.fields.length; f++) this.totalLength[f] -= this.lengths[slot * this.fields.length + f]
    this.payloads[slot] = undefined
    this.slotTerms[slot] = undefined
    this.liveCount--
    this.deadCount++
    if (this.deadCount > 64 && this.deadCount > this.compactRatio * this.payloads.length) this.compact()
    return true
  }

  /**
   * Scores every live document holding at least one query term and hands
   * each to `visit` (the caller filters and keeps its top k). Query terms are
   * de-duplicated; unknown terms contribute nothing.
   */
  search(queryTerms: readonly string[], visit: (payload: T, score: number) => void): void {
    const fieldCount = this.fields.length
    const n = this.liveCount
    if (n === 0) return
    if (this.scores.length < this.payloads.length) this.scores = new Float64Array(Math.max(this.payloads.length, this.scores.length * 2))
    const scores = this.scores
    const averages = this.totalLength.map((total) => Math.max(total / n, 1e-9))
    const touched: number[] = []
    for (const term of new Set(queryTerms)) {
      const list = this.postings.get(term)
      if (!list || list.live === 0) continue
      const idf = Math.log(1 + (n - list.live + 0.5) / (list.live + 0.5))
      const {slots, tfs} = list
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]
        if (this.payloads[slot] === undefined) continue
        let tf = 0
        for (let f = 0; f < fieldCount; f++) {
          const raw = tfs[i * fieldCount + f]
          if (raw === 0) continue
          const spec = this.fields[f]
          tf += (spec.weight * raw) / (1 - spec.b + (spec.b * this.lengths[slot * fieldCount + f]) / averages[f])
        }
        if (scores[slot] === 0) touched.push(slot)
        scores[slot] += (idf * tf) / (this.k1 + tf)
      }
    }
    for (const slot of touched) {
      const score = scores[slot]
      scores[slot] = 0
      visit(this.payloads[slot]!, score)
    }
  }

  /** Rewrites postings without dead slots; slots are renumbered densely. */
  private compact(): void {
    const fieldCount = this.fields.length
    const renumber = new Int32Array(this.payloads.length).fill(-1)
    const payloads: (T | undefined)[] = []
    const slotTerms: (string[] | undefined)[] = []
    const lengths: number[] = []
    for (let slot = 0; slot < this.payloads.length; slot++) {
      if (this.payloads[slot] === undefined) continue
      renumber[slot] = payloads.length
      payloads.push(this.payloads[slot])
      slotTerms.push(this.slotTerms[slot])
      for (let f = 0; f < fieldCount; f++) lengths.push(this.lengths[slot * fieldCount + f])
    }
    for (const [term, list] of this.postings) {
      if (list.live === 0) {
        this.postings.delete(term)
        continue
      }
      const slots: number[] = []
      const tfs: number[] = []
      for (let i = 0; i < list.slots.length; i++) {
        const next = renumber[list.slots[i]]
        if (next < 0) continue
        slots.push(next)
        for (let f = 0; f < fieldCount; f++) tfs.push(list.tfs[i * fieldCount + f])
      }
      list.slots = slots
      list.tfs = tfs
    }
    for (const [key, slot] of this.slotOfKey) this.slotOfKey.set(key, renumber[slot])
    this.payloads = payloads
    this.slotTerms = slotTerms
    this.lengths = lengths
    this.deadCount = 0
  }
}
