/**
 * The agent search index of one node: BM25F over the DiscoveryCard fields,
 * quality boosts, filters and top-k. Pure and synchronous; keeping it in step
 * with the store and the bus is search-service.ts's job.
 */
import type {AgentRecord} from '../types.js'
import {FieldedBm25} from './bm25.js'
import {BM25_K1, BOOST, COMPACT_DEAD_RATIO, SEARCH_FIELDS} from './constants.js'
import {fieldTermsOf, toSearchDoc, type SearchDoc} from './documents.js'
import {offersAny, type SearchFilters} from './filters.js'
import {tokenize} from './tokenizer.js'
import {TopK} from './top-k.js'

export interface RankedAgent {
  doc: SearchDoc
  /** Text relevance × quality boost. */
  score: number
}

/** `"3/4"` → 0.75; null or malformed → 0. */
function cardMatchRatio(cardMatch: string | null): number {
  const match = cardMatch ? /^(\d+)\/(\d+)$/.exec(cardMatch) : null
  if (!match || Number(match[2]) === 0) return 0
  return Math.min(1, Number(match[1]) / Number(match[2]))
}

/** The multiplier qualities put on a text score (see BOOST). */
export function qualityBoost(doc: SearchDoc): number {
  let boost = 1
  if (doc.operational === true) boost += BOOST.operational
  else if (doc.operational === false) boost += BOOST.notOperational
  return boost + BOOST.cardMatch * cardMatchRatio(doc.cardMatch)
}

// Equal scores rank by agent_id, so a result page never shuffles between calls.
const byAgentId = (a: SearchDoc, b: SearchDoc) => a.agentId < b.agentId

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
    if (previous && previous.textKey === doc.textKey) this.bm25.setPayload(doc.agentId, doc)
    else this.bm25.upsert(doc.agentId, fieldTermsOf(doc), doc)
    return doc
  }

  /** Marks an agent on- or offline without touching its text (bus liveness events). */
  setOnline(agentId: string, online: boolean): void {
    const doc = this.bm25.payloadOf(agentId)
    if (doc && doc.online !== online) this.bm25.setPayload(agentId, {...doc, online})
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
    const top = new TopK<SearchDoc>(filters.limit, byAgentId)
    const consider = (doc: SearchDoc, textScore: number) => {
      if (!doc.online) return
      if (filters.operationalOnly && doc.operational !== true) return
      if (!offersAny(filters.accepts, doc.accepts) || !offersAny(filters.produces, doc.produces)) return
      top.push(doc, textScore * qualityBoost(doc))
    }
    const terms = tokenize(prompt)
    if (terms.length === 0) for (const doc of this.bm25.all()) consider(doc, 1)
    else this.bm25.search(terms, consider)
    return top.sorted().map(({item, score}) => ({doc: item, score}))
  }
}
