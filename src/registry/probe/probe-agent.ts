/**
 * One probe of one agent: its PublicCard, its health, and every advertised
 * skill. spec Discovery qualities: `operational` is true when every skill
 * answered `POST {}` with anything but 404/405/5xx, false when any did not,
 * null when unknown; `card_match` is `"<n>/<total>"` of declared `returns`
 * paths present and non-null in a probe built only from the skill's own
 * examples, null when no skill declares `returns`.
 *
 * A failed card fetch does not wipe the last good PublicCard: its skills are
 * the ones still advertised, so they are probed as usual and the failure is
 * recorded beside the kept card (docs/search-and-probes.md "The kept card").
 */
import {createHash} from 'node:crypto'
import type {SafeFetchOptions, SafeResponse} from '../../http/safe-fetch.js'
import {isMeshError} from '../../lib/errors.js'
import type {CardFetchFailure, JsonObject, LiveCheck, ProbeResult} from '../types.js'
import {HEALTH_PATH, isAnsweringStatus, PROBE_HEADER, SKILL_CONCURRENCY, WELL_KNOWN_CARD_PATH} from './constants.js'
import {cardMatchPlan, checkPublicCard, countPresent, skillBaseUrl, type CardMatchSkip, type CardSkill, type PublicCard} from './public-card.js'

/** The outbound fetch the prober uses (safeFetch with the operator's policy bound in). */
export type ProbeFetch = (url: string, init?: Pick<SafeFetchOptions, 'method' | 'json' | 'headers' | 'signal'>) => Promise<SafeResponse>

/** What the prober needs to know about a target. */
export interface ProbeTarget {
  agentId: string
  endpoint: string
  /** The DiscoveryCard; its `availability.now` stands in for a missing /health. */
  discoveryCard: JsonObject | null
  /** The last good PublicCard and when it was fetched (from the stored probe), kept if this fetch fails. */
  lastCard?: {card: JsonObject; fetchedAt: string} | null
}

/** Liveness as read from `GET /health` (or inferred from availability.now on a 404). */
export interface HealthReading {
  status: number | null
  ok: boolean | null
  live: boolean
  source: 'health' | 'availability'
  error?: string
}

/** One skill's probe, stored in ProbeResult.skills. */
export interface SkillProbe {
  id: string
  url: string
  answering: boolean | null
  status: number | null
  card_match: string | null
  /** Set when `returns` are declared but were not content-probed. */
  card_match_skipped?: CardMatchSkip
  error?: string
}

/** The probe result the prober saves; ProbeResult plus mesh's extras. */
export interface AgentProbe extends ProbeResult {
  card_fetched_at: string | null
  card_error: CardFetchFailure | null
  live_check: LiveCheck
  skills: SkillProbe[]
  health: HealthReading | null
  /** Hash of the DiscoveryCard this probe ran against, so an unchanged card push triggers no re-probe. */
  discovery_card_hash: string | null
}

/** Stable hash of a DiscoveryCard. */
export const cardHash = (card: JsonObject | null) => (card ? createHash('sha256').update(JSON.stringify(card)).digest('hex').slice(0, 32) : null)

const describe = (error: unknown) => (isMeshError(error) ? `${error.code}: ${error.message}` : `fetch_failed: ${String((error as Error)?.message ?? error)}`)

const PROBE_HEADERS = {accept: 'application/json', [PROBE_HEADER]: '1'}

async function readCard(fetch: ProbeFetch, base: string, signal?: AbortSignal): Promise<{card: PublicCard} | {error: string}> {
  let response: SafeResponse
  try {
    response = await fetch(base + WELL_KNOWN_CARD_PATH, {headers: PROBE_HEADERS, signal})
  } catch (error) {
    return {error: `card_unreachable: ${describe(error)}`}
  }
  if (response.status !== 200) return {error: `card_unavailable: GET ${WELL_KNOWN_CARD_PATH} answered ${response.status}`}
  if (response.json === undefined) return {error: 'card_invalid: not JSON'}
  return checkPublicCard(response.json)
}

async function readHealth(fetch: ProbeFetch, base: string, availabilityNow: boolean, signal?: AbortSignal): Promise<HealthReading> {
  try {
    const response = await fetch(base + HEALTH_PATH, {headers: PROBE_HEADERS, signal})
    // DECISIONS: an agent with no /health is live per availability.now.
    if (response.status === 404) return {status: 404, ok: null, live: availabilityNow, source: 'availability'}
    const ok = (response.json as {ok?: unknown} | undefined)?.ok
    if (response.status === 200 && typeof ok === 'boolean') return {status: 200, ok, live: ok, source: 'health'}
    return {status: response.status, ok: false, live: false, source: 'health', error: `health answered ${response.status} without {ok: boolean}`}
  } catch (error) {
    return {status: null, ok: false, live: false, source: 'health', error: describe(error)}
  }
}

async function probeSkill(fetch: ProbeFetch, base: string, skill: CardSkill, card: PublicCard, signal?: AbortSignal): Promise<SkillProbe> {
  const url = `${base}/v1/${skill.id}`
  const result: SkillProbe = {id: skill.id, url, answering: null, status: null, card_match: null}
  try {
    const response = await fetch(url, {method: 'POST', json: {}, headers: PROBE_HEADERS, signal})
    result.status = response.status
    result.answering = isAnsweringStatus(response.status)
  } catch (error) {
    result.answering = false
    result.error = describe(error)
  }
  const plan = cardMatchPlan(skill, card.pricing)
  if (plan.kind === 'none') return result
  if (plan.kind === 'skip') {
    result.card_match_skipped = plan.reason
    return result
  }
  let best = 0
  // A skill that does not answer an empty POST cannot answer its examples either.
  if (result.answering) {
    for (const body of plan.bodies) {
      try {
        const response = await fetch(url, {method: 'POST', json: body, headers: PROBE_HEADERS, signal})
        if (response.status >= 200 && response.status < 300) best = Math.max(best, countPresent(response.json, plan.returns))
      } catch {
        // an example that fails counts as matching nothing
      }
      if (best === plan.returns.length) break
    }
  }
  result.card_match = `${best}/${plan.returns.length}`
  return result
}

/** Runs `work` over `items` with at most `limit` in flight, keeping order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i])
    }
  }
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker))
  return out
}

/** Sums the per-skill card_match strings; null when no skill was content-probed. */
export function aggregateCardMatch(skills: readonly SkillProbe[]): string | null {
  let present = 0
  let total = 0
  for (const skill of skills) {
    const match = skill.card_match ? /^(\d+)\/(\d+)$/.exec(skill.card_match) : null
    if (!match) continue
    present += Number(match[1])
    total += Number(match[2])
  }
  return total === 0 ? null : `${present}/${total}`
}

/** The kept card of a target, when it still satisfies the PublicCard schema. */
function keptCard(target: ProbeTarget): {card: PublicCard; fetchedAt: string} | null {
  if (!target.lastCard) return null
  const checked = checkPublicCard(target.lastCard.card)
  return 'card' in checked ? {card: checked.card, fetchedAt: target.lastCard.fetchedAt} : null
}

/** Probes one agent and returns what to save. Never throws for anything the agent does. */
export async function probeAgent(target: ProbeTarget, options: {fetch: ProbeFetch; now: () => number; signal?: AbortSignal}): Promise<AgentProbe> {
  const {fetch, signal} = options
  const probedAt = new Date(options.now()).toISOString()
  const base = target.endpoint.replace(/\/+$/, '')
  const discoveryNow = (target.discoveryCard?.availability as {now?: unknown} | undefined)?.now === true
  const read = await readCard(fetch, base, signal)
  const fresh = 'card' in read ? read.card : null
  // A kept card is stale for availability: the DiscoveryCard, pushed on every heartbeat, is the fresher word.
  const health = await readHealth(fetch, base, fresh ? fresh.availability.now === true : discoveryNow, signal)
  const common = {
    discovery_card_hash: cardHash(target.discoveryCard),
    health,
    live_check: {ok: health.live, source: health.source, checked_at: probedAt},
  }
  const failure = 'error' in read ? {at: probedAt, reason: read.error} : null
  const kept = fresh ? {card: fresh, fetchedAt: probedAt} : keptCard(target)
  if (!kept) {
    // Never a good card: the agent's contract surface is broken and its skills cannot be known, so it is not operational.
    const reason = failure?.reason ?? 'card_unavailable'
    return {probed_at: probedAt, card: null, card_fetched_at: null, card_error: failure, operational: false, card_match: null, skills: [], error: reason, ...common}
  }
  const card = kept.card
  const skillBase = skillBaseUrl(card, base)
  const skills = await mapLimited(card.skills, SKILL_CONCURRENCY, (skill) => probeSkill(fetch, skillBase, skill, card, signal))
  // spec: operational = every advertised skill last probed as answering; zero advertised skills: unknown.
  const operational = skills.length === 0 ? null : skills.every((skill) => skill.answering === true)
  return {
    probed_at: probedAt,
    card: card as JsonObject,
    card_fetched_at: kept.fetchedAt,
    card_error: failure,
    operational,
    card_match: aggregateCardMatch(skills),
    skills,
    error: failure?.reason ?? null,
    ...common,
  }
}
