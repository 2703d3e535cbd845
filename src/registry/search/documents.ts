/**
 * What the search index holds per agent, and how an AgentRecord becomes it.
 * DECISIONS: search indexes only the DiscoveryCard (name, description,
 * category, tags/capabilities; accepts/produces as filters) plus the
 * discovery qualities; `invoke` comes from the prober's cached PublicCard.
 */
import {didKeyFromPublicKey} from '../../identity/did-key.js'
import type {AgentRecord, JsonObject} from '../types.js'
import {ONLINE_WINDOW_MS} from './constants.js'
import {normalizeMediaType} from './filters.js'
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
  invoke: InvokeTarget[]
  /** The indexed text, so a heartbeat repeating the same card costs no reindex. */
  textKey: string
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

/** Skills of the last probe that answered, with their URLs. */
function invokeTargets(record: AgentRecord): InvokeTarget[] {
  const skills = record.probe?.skills ?? []
  return skills.filter((skill) => skill.answering === true && typeof skill.url === 'string').map((skill) => ({skill: skill.id, url: skill.url}))
}

/** True when the agent's last token call lies within the 5-minute window before `nowMs`. */
export const isOnlineAt = (lastSeenMs: number | null, nowMs: number) => lastSeenMs !== null && lastSeenMs >= nowMs - ONLINE_WINDOW_MS

/** Builds the index document of an agent record as of `nowMs`. */
export function toSearchDoc(record: AgentRecord, nowMs: number): SearchDoc {
  const card: JsonObject = record.agentCard ?? {}
  const displayName = record.displayName ?? stringOrNull(card.name) ?? record.agentId
  const tags = [...new Set([...strings(card.tags), ...record.capabilities])]
  const description = stringOrNull(card.description) ?? record.description
  const category = stringOrNull(card.category)
  const doc: Omit<SearchDoc, 'textKey'> = {
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
    operational: record.probe?.operational ?? null,
    cardMatch: record.probe?.card_match ?? null,
    invoke: invokeTargets(record),
  }
  return {...doc, textKey: JSON.stringify([displayName, record.agentId, tags, category, description])}
}

/** The per-field terms of a document, in the order of SEARCH_FIELDS (name, tags, category, description). */
export function fieldTermsOf(doc: SearchDoc): string[][] {
  // agent ids like "image_gen-2" read as words too.
  const name = tokenize(`${doc.displayName} ${doc.agentId.replace(/[_-]+/g, ' ')}`, {keepStopWords: true})
  return [name, tokenize(doc.tags.join(' '), {keepStopWords: true}), tokenize(doc.category ?? ''), tokenize(doc.description ?? '')]
}
