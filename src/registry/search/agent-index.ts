/**
 * The agent search index of one node: BM25F over the DiscoveryCard fields,
 * quality boosts, filters and top-k. Pure and synchronous; keeping it in step
 * with the store and the bus is search-service.ts's job.
 */
import type {AgentRecord} from '../types.js'
import {FieldedBm25} from './bm25.js'
import {BM25_K1, COMPACT_DEAD_RATIO, SEARCH_FIELDS} from './constants.js'
import {fieldTermsOf, MAX_QUALITY_BOOST, toSearchDoc, type SearchDoc} from './documents.js'
import {offersAny, type SearchFilters} from './filters.js'
import {tokenize} from './tokenizer.js'
import {TopK} from './top-k.js'

export {qualityBoost} from './documents.js'

export interface RankedAgent {
  doc: SearchDoc
  /** Text relevance × quality boost. */
  score: number
}

/** The weight the index ranks a document with: offline agents never rank. */
const weightOf = (doc: SearchDoc) => (doc.online ? doc.boost : 0)


export class AgentSearchIndex {
  private readonly bm25 = new FieldedBm25<SearchDoc>({fields: SEARCH_FIELDS, k1: BM25_K1, compactRatio: COMPACT_DEAD_RATIO})

  /** Agents indexed (online or not). */
  get size(): number {
    return this.bm25.size
  }

  get(agentId: string): SearchDoc | undefined {
    return this.bm25.payloadOf(agentId)
  }

  /** Indexes an agent record as of `nowMs`; the text is re-indexed only when it changed. */
  upsert(record: AgentRecord, nowMs: number): SearchDoc {
    return this.upsertDoc(toSearchDoc(record, nowMs))
  }

  /** Indexes a ready document (the benchmark builds these directly). */
  upsertDoc(doc: SearchDoc): SearchDoc {
    const previous = this.bm25.payloadOf(doc.agentId)
    if (previous && previous.textKey === doc.textKey) this.bm25.setPayload(doc.agentId, doc, weightOf(doc))
    else this.bm25.upsert(doc.agentId, fieldTermsOf(doc), doc, weightOf(doc))
    return doc
  }

  /** Marks an agent on- or offline without touching its text (bus liveness events). */
  setOnline(agentId: string, online: boolean): void {
    const doc = this.bm25.payloadOf(agentId)
    if (!doc || doc.online === online) return
    const next = {...doc, online}
    this.bm25.setPayload(agentId, next, weightOf(next))
  }

  remove(agentId: string): boolean {
    return this.bm25.remove(agentId)
  }

  /**
   * The best `filters.limit` online agents for a prompt. A prompt with no
   * searchable words (empty, only stop words) ranks every online agent by
   * its qualities alone, so an empty search lists the live network.
   */
  query(prompt: string, filters: SearchFilters): RankedAgent[] {
    const {operationalOnly, accepts, produces} = filters
    const accept = (doc: SearchDoc) =>
      (!operationalOnly || doc.operational === true)
      && (accepts.length === 0 || offersAny(accepts, doc.accepts))
      && (produces.length === 0 || offersAny(produces, doc.produces))
    const terms = tokenize(prompt)
    let ranked: Array<{item: SearchDoc; score: number}>
    if (terms.length > 0) {
      // Equal scores are ordered by a hash of the agent id: the same order on every node and every call.
      ranked = this.bm25.top(terms, {k: filters.limit, accept, maxWeight: MAX_QUALITY_BOOST})
    } else {
      const top = new TopK<SearchDoc>(filters.limit)
      for (const doc of this.bm25.all()) if (doc.online && accept(doc)) top.push(doc, weightOf(doc), FieldedBm25.tieOf(doc.agentId))
      ranked = top.sorted()
    }
    return ranked.map(({item, score}) => ({doc: item, score}))
  }
}
