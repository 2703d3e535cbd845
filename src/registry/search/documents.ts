/**
 * What the search index holds per agent, and how an AgentRecord becomes it.
 * DECISIONS: search indexes only the DiscoveryCard (name, description,
 * category, tags/capabilities; accepts/produces as filters) plus the
 * discovery qualities; `invoke` comes from the prober's cached PublicCard.
 */
import {didKeyFromPublicKey} from '../../identity/did-key.js'
import type {AgentRecord, JsonObject, LiveCheck} from '../types.js'
import {BOOST, ONLINE_WINDOW_MS} from './constants.js'
import {normalizeMediaType} from './filters.js'
import {hash53} from './hash.js'
import {tokenize} from './tokenizer.js'

/** A skill that answered its last probe and the exact URL to POST to. */
export interface InvokeTarget {
  skill: string
  url: string
}

export interface SearchDoc {
  agentId: string
  /** The hoisted card name; the raw agent_id when the card has none (spec). */
  displayName: string
  did: string | null
  /** The agent bound an Ed25519 key (binding needs a valid Mesh-Sig proof). */
  verified: boolean
  endpoint: string | null
  description: string | null
  category: string | null
  tags: string[]
  /** Normalised media types (lower case, no parameters). */
  accepts: string[]
  produces: string[]
  /**
   * Liveness as this node last learned it (record at load, then bus events).
   * Query time re-checks results against the store's watermark.
   */
  online: boolean
  lastSeenMs: number | null
  operational: boolean | null
  cardMatch: string | null
  /** The prober's last liveness reading (`/health`, else availability.now); shown, not ranked. */
  liveCheck: LiveCheck | null
  invoke: InvokeTarget[]
  /** Multiplier the qualities put on the text score (see qualityBoost), computed once per change. */
  boost: number
  /** 53-bit hash of the indexed text, so a heartbeat repeating the same card costs no reindex. */
  textKey: number
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : []

const stringOrNull = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null)

function didOf(pubkey: string | null): string | null {
  if (!pubkey) return null
  try {
    return didKeyFromPublicKey(pubkey)
  } catch {
    return null
  }
}

/** Skills of the last probe that answered, with their URLs (the skills of the last good PublicCard: a failed card fetch keeps it). */
function invokeTargets(record: AgentRecord): InvokeTarget[] {
  const skills = record.probe?.skills ?? []
  return skills.filter((skill) => skill.answering === true && typeof skill.url === 'string').map((skill) => ({skill: skill.id, url: skill.url}))
}

/** `"3/4"` → 0.75; null or malformed → 0. */
function cardMatchRatio(cardMatch: string | null): number {
  const match = cardMatch ? /^(\d+)\/(\d+)$/.exec(cardMatch) : null
  if (!match || Number(match[2]) === 0) return 0
  return Math.min(1, Number(match[1]) / Number(match[2]))
}

/** The multiplier qualities put on a text score (see BOOST in constants.ts). */
export function qualityBoost(operational: boolean | null, cardMatch: string | null): number {
  let boost = 1
  if (operational === true) boost += BOOST.operational
  else if (operational === false) boost += BOOST.notOperational
  return boost + BOOST.cardMatch * cardMatchRatio(cardMatch)
}

/** The largest value qualityBoost can take (the pruning bound of the index). */
export const MAX_QUALITY_BOOST = 1 + BOOST.operational + BOOST.cardMatch

/** True when the agent's last token call lies within the 5-minute window before `nowMs`. */
export const isOnlineAt = (lastSeenMs: number | null, nowMs: number) => lastSeenMs !== null && lastSeenMs >= nowMs - ONLINE_WINDOW_MS

/** Builds the index document of an agent record as of `nowMs`. */
export function toSearchDoc(record: AgentRecord, nowMs: number): SearchDoc {
  const card: JsonObject = record.agentCard ?? {}
  const displayName = record.displayName ?? stringOrNull(card.name) ?? record.agentId
  const tags = [...new Set([...strings(card.tags), ...record.capabilities])]
  const description = stringOrNull(card.description) ?? record.description
  const category = stringOrNull(card.category)
  const operational = record.probe?.operational ?? null
  const cardMatch = record.probe?.card_match ?? null
  // One literal with every field in one order: all documents share a shape, which keeps the ranking loop fast.
  return {
    agentId: record.agentId,
    displayName,
    did: didOf(record.pubkey),
    verified: record.pubkey !== null,
    endpoint: record.endpoint ?? stringOrNull(card.endpoint),
    description,
    category,
    tags,
    accepts: strings(card.accepts).map(normalizeMediaType),
    produces: strings(card.produces).map(normalizeMediaType),
    online: isOnlineAt(record.lastSeenMs, nowMs),
    lastSeenMs: record.lastSeenMs,
    operational,
    cardMatch,
    liveCheck: record.probe?.live_check ?? null,
    invoke: invokeTargets(record),
    boost: qualityBoost(operational, cardMatch),
    textKey: hash53(JSON.stringify([displayName, record.agentId, tags, category, description])),
  }
}

/** The per-field terms of a document, in the order of SEARCH_FIELDS (name, tags, category, description). */
export function fieldTermsOf(doc: SearchDoc): string[][] {
  // agent ids like "image_gen-2" read as words too.
  const name = tokenize(`${doc.displayName} ${doc.agentId.replace(/[_-]+/g, ' ')}`, {keepStopWords: true})
  return [name, tokenize(doc.tags.join(' '), {keepStopWords: true}), tokenize(doc.category ?? ''), tokenize(doc.description ?? '')]
}
