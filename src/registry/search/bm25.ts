/**
 * A fielded BM25 (BM25F) inverted index held in memory. Each document is a
 * key, a list of term lists (one per field, at most 4 fields) and a payload
 * the caller reads back at query time.
 *
 * Postings are growable Int32Arrays: the slot of each document holding the
 * term, and its per-field term frequencies packed 7 bits per field. Replacing
 * or removing a document leaves a tombstone rather than editing posting lists
 * in place; postings are compacted once tombstones pass a share of all slots.
 *
 * `top()` ranks with MaxScore-style pruning: terms held by a large share of
 * documents ("common") only add to documents the rarer terms found, and the
 * answer is kept only when no document outside that set could reach the k-th
 * score; otherwise every term is scored in full. The result is always exact.
 */
import {hash53} from './hash.js'
import {TopK} from './top-k.js'

export interface FieldSpec {
  name: string
  /** Multiplier on the field's term frequency. */
  weight: number
  /** Length normalisation, 0 (none) … 1 (full). */
  b: number
}

interface Postings {
  slots: Int32Array
  /** Per posting: tf of field f in bits 7f … 7f+6 (capped at 127). */
  packed: Int32Array
  length: number
  /** Live documents holding the term (document frequency). */
  live: number
}

export interface Bm25Options {
  fields: readonly FieldSpec[]
  k1: number
  /** Compact once dead slots exceed this share of all slots. */
  compactRatio: number
  /** Terms in more than this share of documents are pruned candidates (see top()). Default 0.05. */
  commonShare?: number
}

export interface TopOptions<T> {
  k: number
  /** Query-time filters; called only for documents that could still enter the top k. */
  accept: (payload: T) => boolean
  /** An upper bound of every document's weight (for the pruning bound). */
  maxWeight: number
}

const TF_BITS = 7
const TF_MAX = (1 << TF_BITS) - 1
const MAX_FIELDS = 4

export class FieldedBm25<T> {
  private readonly fields: readonly FieldSpec[]
  private readonly weights: Float64Array
  private readonly bs: Float64Array
  private readonly k1: number
  private readonly compactRatio: number
  private readonly commonShare: number
  private readonly postings = new Map<string, Postings>()
  private readonly slotOfKey = new Map<string, number>()
  private payloads: (T | undefined)[] = []
  /** Per slot: the multiplier of its text score; 0 keeps it out of every result. Dense, so ranking reads it cache-friendly. */
  private weightOf = new Float64Array(64)
  /** Per slot: hash of the key, ordering equal scores identically on every node. */
  private tieOf = new Float64Array(64)
  private slotTerms: (string[] | undefined)[] = []
  /** slot × field lengths, flat. */
  private lengths: number[] = []
  private readonly totalLength: number[]
  private liveCount = 0
  private deadCount = 0
  private scores = new Float64Array(0)
  private touched = new Int32Array(0)
  private touchedCount = 0

  constructor(options: Bm25Options) {
    if (options.fields.length > MAX_FIELDS) throw new TypeError(`FieldedBm25 takes at most ${MAX_FIELDS} fields`)
    this.fields = options.fields
    this.weights = Float64Array.from(options.fields.map((f) => f.weight))
    this.bs = Float64Array.from(options.fields.map((f) => f.b))
    this.k1 = options.k1
    this.compactRatio = options.compactRatio
    this.commonShare = options.commonShare ?? 0.05
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

  /** Replaces the payload and weight without touching the text (qualities, liveness). */
  setPayload(key: string, payload: T, weight: number): boolean {
    const slot = this.slotOfKey.get(key)
    if (slot === undefined) return false
    this.payloads[slot] = payload
    this.weightOf[slot] = weight
    return true
  }

  private setSlotNumbers(slot: number, weight: number, tie: number): void {
    if (slot >= this.weightOf.length) {
      const size = Math.max(64, this.weightOf.length * 2, slot + 1)
      const weights = new Float64Array(size)
      weights.set(this.weightOf)
      this.weightOf = weights
      const ties = new Float64Array(size)
      ties.set(this.tieOf)
      this.tieOf = ties
    }
    this.weightOf[slot] = weight
    this.tieOf[slot] = tie
  }

  /** The tie-break value of a key (lower ranks first among equal scores). */
  static tieOf(key: string): number {
    return hash53(key)
  }

  /** Every live payload, in no particular order. */
  *all(): IterableIterator<T> {
    for (const slot of this.slotOfKey.values()) yield this.payloads[slot]!
  }

  /**
   * Adds or replaces a document; `fieldTerms[i]` are the terms of `fields[i]`;
   * `weight` multiplies its text score (0: never returned, e.g. offline).
   */
  upsert(key: string, fieldTerms: readonly (readonly string[])[], payload: T, weight = 1): void {
    this.remove(key)
    const slot = this.payloads.length
    const counts = new Map<string, number>()
    for (let f = 0; f < this.fields.length; f++) {
      const terms = fieldTerms[f] ?? []
      this.lengths.push(terms.length)
      this.totalLength[f] += terms.length
      const shift = TF_BITS * f
      for (const term of terms) {
        const packed = counts.get(term) ?? 0
        if (((packed >> shift) & TF_MAX) < TF_MAX) counts.set(term, packed + (1 << shift))
      }
    }
    for (const [term, packed] of counts) {
      let list = this.postings.get(term)
      if (!list) this.postings.set(term, (list = {slots: new Int32Array(2), packed: new Int32Array(2), length: 0, live: 0}))
      if (list.length === list.slots.length) {
        const slots = new Int32Array(list.length * 2)
        slots.set(list.slots)
        const packs = new Int32Array(list.length * 2)
        packs.set(list.packed)
        list.slots = slots
        list.packed = packs
      }
      list.slots[list.length] = slot
      list.packed[list.length] = packed
      list.length++
      list.live++
    }
    this.payloads.push(payload)
    this.setSlotNumbers(slot, weight, hash53(key))
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

  /** The query's known terms with their idf, rarest first. */
  private queryTerms(terms: readonly string[]): Array<{list: Postings; idf: number}> {
    const n = this.liveCount
    const out: Array<{list: Postings; idf: number}> = []
    for (const term of new Set(terms)) {
      const list = this.postings.get(term)
      if (!list || list.live === 0) continue
      out.push({list, idf: Math.log(1 + (n - list.live + 0.5) / (list.live + 0.5))})
    }
    return out.sort((a, b) => a.list.live - b.list.live)
  }

  private prepareBuffers(): void {
    if (this.scores.length < this.payloads.length) {
      const size = Math.max(this.payloads.length, this.scores.length * 2, 64)
      this.scores = new Float64Array(size)
      this.touched = new Int32Array(size)
    }
    this.touchedCount = 0
  }

  /** Adds one term's BM25F contribution; with `onlyTouched`, only to documents already scored. */
  private accumulate(list: Postings, idf: number, onlyTouched: boolean): void {
    const fieldCount = this.fields.length
    const n = this.liveCount
    const {scores, touched, weights, lengths, payloads, k1} = this
    // norm(len) = 1 − b + b·len/avg, with the per-field constants hoisted out of the loop.
    const oneMinusB = new Float64Array(fieldCount)
    const bOverAvg = new Float64Array(fieldCount)
    for (let f = 0; f < fieldCount; f++) {
      oneMinusB[f] = 1 - this.bs[f]
      bOverAvg[f] = this.bs[f] / Math.max(this.totalLength[f] / n, 1e-9)
    }
    const {slots, packed, length} = list
    let touchedCount = this.touchedCount
    for (let i = 0; i < length; i++) {
      const slot = slots[i]
      const previous = scores[slot]
      if (onlyTouched ? previous === 0 : payloads[slot] === undefined) continue
      let bits = packed[i]
      let tf = 0
      const base = slot * fieldCount
      for (let f = 0; bits !== 0; f++, bits >>= TF_BITS) {
        const raw = bits & TF_MAX
        if (raw !== 0) tf += (weights[f] * raw) / (oneMinusB[f] + bOverAvg[f] * lengths[base + f])
      }
      if (previous === 0) touched[touchedCount++] = slot
      scores[slot] = previous + (idf * tf) / (k1 + tf)
    }
    this.touchedCount = touchedCount
  }

  /** Hands every touched document to `visit` and clears the score buffer. */
  private drain(visit: (payload: T, score: number) => void): void {
    const {scores, touched, payloads} = this
    for (let i = 0; i < this.touchedCount; i++) {
      const slot = touched[i]
      const score = scores[slot]
      scores[slot] = 0
      visit(payloads[slot]!, score)
    }
    this.touchedCount = 0
  }

  /**
   * Scores every live document holding at least one query term and hands
   * each to `visit` (no pruning). Query terms are de-duplicated; unknown
   * terms contribute nothing.
   */
  search(queryTerms: readonly string[], visit: (payload: T, score: number) => void): void {
    if (this.liveCount === 0) return
    this.prepareBuffers()
    for (const {list, idf} of this.queryTerms(queryTerms)) this.accumulate(list, idf, false)
    this.drain(visit)
  }

  /** The k best documents by text score × weigh(payload), exact, with common terms pruned when provably safe. */
  top(queryTerms: readonly string[], options: TopOptions<T>): Array<{item: T; score: number}> {
    if (this.liveCount === 0 || options.k <= 0) return []
    const terms = this.queryTerms(queryTerms)
    const cutoff = this.commonShare * this.liveCount
    const rare = terms.filter((t) => t.list.live <= cutoff)
    const common = terms.filter((t) => t.list.live > cutoff)
    const collect = () => {
      const top = new TopK<T>(options.k)
      const {accept} = options
      const {scores, touched, payloads, weightOf, tieOf} = this
      for (let i = 0; i < this.touchedCount; i++) {
        const slot = touched[i]
        const weighted = scores[slot] * weightOf[slot]
        scores[slot] = 0
        // Zero weight, or cannot enter the heap: decided without touching the payload.
        if (weighted === 0 || !top.admits(weighted, tieOf[slot])) continue
        const payload = payloads[slot]!
        if (accept(payload)) top.push(payload, weighted, tieOf[slot])
      }
      this.touchedCount = 0
      return top
    }
    this.prepareBuffers()
    if (rare.length > 0 && common.length > 0) {
      for (const {list, idf} of rare) this.accumulate(list, idf, false)
      for (const {list, idf} of common) this.accumulate(list, idf, true)
      const top = collect()
      // A document holding only common terms scores below Σ idf × maxWeight (each term's share is < idf).
      const bound = options.maxWeight * common.reduce((sum, t) => sum + t.idf, 0)
      if (top.size === options.k && top.worstScore >= bound) return top.sorted()
      this.prepareBuffers()
    }
    for (const {list, idf} of terms) this.accumulate(list, idf, false)
    return collect().sorted()
  }

  /** Rewrites postings without dead slots; slots are renumbered densely. */
  private compact(): void {
    const fieldCount = this.fields.length
    const renumber = new Int32Array(this.payloads.length).fill(-1)
    const payloads: (T | undefined)[] = []
    const slotTerms: (string[] | undefined)[] = []
    const lengths: number[] = []
    const weights = new Float64Array(this.weightOf.length)
    const ties = new Float64Array(this.tieOf.length)
    for (let slot = 0; slot < this.payloads.length; slot++) {
      if (this.payloads[slot] === undefined) continue
      weights[payloads.length] = this.weightOf[slot]
      ties[payloads.length] = this.tieOf[slot]
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
      let kept = 0
      for (let i = 0; i < list.length; i++) {
        const next = renumber[list.slots[i]]
        if (next < 0) continue
        list.slots[kept] = next
        list.packed[kept] = list.packed[i]
        kept++
      }
      list.length = kept
    }
    for (const [key, slot] of this.slotOfKey) this.slotOfKey.set(key, renumber[slot])
    this.payloads = payloads
    this.slotTerms = slotTerms
    this.lengths = lengths
    this.weightOf = weights
    this.tieOf = ties
    this.deadCount = 0
  }
}
