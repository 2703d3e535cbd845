/**
 * Where to call an agent (spec: What the service does 1–2, Site; DECISIONS:
 * the well-known card at the site route is the prober's cached PublicCard).
 * A URL is used as given. An agent id is looked up on a registry: its
 * directory record (`GET /v1/agents/<id>`: does it exist, its endpoint) and
 * the PublicCard the registry cached from it (`GET /agent/<id>/.well-known/agent.json`:
 * its `url` and skills). The registry is a router, never a proxy: the call
 * then goes straight to the agent.
 *
 * Cards are cached in memory for the process (one CLI run, one script), not
 * on disk: the registry serves them with a 60 s max-age, the agent's location
 * may move at any time (spec Identity attestation: location is movable), and
 * a resolution costs two small GETs next to a skill call.
 */
import type {DirectoryRecord} from '../../registry/wire.js'
import {MeshError, isMeshError} from '../../lib/errors.js'
import type {PublicCard} from '../../protocol/agent-card.js'
import {AGENT_ID_PATTERN, AGENT_ID_RULE} from '../../protocol/registry.js'
import {shapeProblem} from '../answer-shape.js'
import {callJson} from '../http-json.js'
import {printable} from '../printable.js'
import {createRegistryClient} from '../registry/registry-client.js'
import {REGISTRY_CARD_PATH, RESOLVE_TIMEOUT_MS} from './constants.js'

/** Where a call goes, and what the registry said about the agent when it was looked up by id. */
export interface ResolvedAgent {
  /** The agent's base URL (no trailing slash): skills are `POST <url>/v1/<skill>`. */
  url: string
  /** The id looked up; null when a URL was given. */
  agentId: string | null
  /** The registry asked; null when a URL was given. */
  registry: string | null
  /** The registry's cached PublicCard; null when a URL was given. */
  card: PublicCard | null
}

/** Registry lookups of one process: agent key → pending or settled lookup. */
export type AgentCardCache = Map<string, Promise<{url: string; card: PublicCard}>>

export interface ResolveAgentOptions {
  /** Registry base URL; needed for an agent id. */
  registry?: string
  /** When given, the card must list this skill (`unknown_skill` otherwise). Not checked for a URL. */
  skill?: string
  fetch?: typeof fetch
  /** Per registry request; default 15 s. */
  timeoutMs?: number
  /** Default: one cache shared by the whole process. */
  cache?: AgentCardCache
}

/** A cache of resolved cards (e.g. one per test, or per long-running job that wants fresh cards). */
export const createAgentCardCache = (): AgentCardCache => new Map()
const processCache = createAgentCardCache()

const trimmed = (url: string) => url.replace(/\/+$/, '')

/** An http(s) URL without a trailing slash, or null. */
function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? trimmed(url.href) : null
  } catch {
    return null
  }
}

const CARD_SHAPE = {url: 'string', skills: 'array'} as const

async function lookUp(agentId: string, registry: string, options: ResolveAgentOptions): Promise<{url: string; card: PublicCard}> {
  const timeoutMs = options.timeoutMs ?? RESOLVE_TIMEOUT_MS
  const client = createRegistryClient({registry, fetch: options.fetch, timeoutMs})
  const [record, card] = await Promise.allSettled([
    client.getAgent(agentId),
    callJson<PublicCard>({
      method: 'GET',
      url: new URL(registry + REGISTRY_CARD_PATH(agentId)),
      timeoutMs,
      fetch: options.fetch,
      service: 'registry',
      check: (body) => shapeProblem(body, CARD_SHAPE),
    }),
  ])
  // The directory answers first: an unknown id is agent_not_found, not "not live".
  if (record.status === 'rejected') {
    const error = record.reason
    // "No agent "x" is registered" says which registry was asked.
    if (isMeshError(error) && error.code === 'agent_not_found') throw new MeshError('not_found', 'agent_not_found', `${error.message} on ${registry}`, {details: error.details})
    throw error
  }
  const endpoint = (record.value as DirectoryRecord).endpoint
  if (card.status === 'rejected') {
    const error = card.reason
    if (isMeshError(error) && error.code === 'not_live') {
      const where = endpoint ? ` Its registered endpoint is ${printable(endpoint)}; call that URL directly if the agent is up.` : ''
      throw new MeshError('not_found', 'not_live', `${agentId} is not live on ${registry}: ${error.message}.${where}`, {details: error.details})
    }
    throw error
  }
  // spec: the caller reads the agent's own url from its card; the registered endpoint only when the card's is unusable.
  const url = httpUrl(card.value.url) ?? httpUrl(endpoint)
  if (!url) throw new MeshError('not_found', 'agent_url_unknown', `The card of ${agentId} on ${registry} has no http(s) url, and no endpoint is registered; the agent cannot be called`)
  return {url, card: card.value}
}

/**
 * The agent to call: a URL (http(s)) is used as given, trailing slash
 * trimmed; an agent id is resolved through `options.registry` (its card's
 * `url`). Errors: `usage_agent_target` (neither a URL nor an id),
 * `usage_registry_needed`, the registry's own (`agent_not_found`,
 * `registry_unreachable`, …), `not_live` (no live card: offline or never
 * fetched by the prober), `agent_url_unknown`, `unknown_skill`.
 */
export async function resolveAgentUrl(agentIdOrUrl: string, options: ResolveAgentOptions = {}): Promise<ResolvedAgent> {
  const target = agentIdOrUrl.trim()
  if (target.includes('://')) {
    const url = httpUrl(target)
    if (!url) throw new MeshError('invalid', 'usage_agent_target', `"${printable(target).slice(0, 200)}" is not an http(s) URL`)
    return {url, agentId: null, registry: null, card: null}
  }
  if (!AGENT_ID_PATTERN.test(target)) {
    throw new MeshError('invalid', 'usage_agent_target', `"${printable(target).slice(0, 80)}" is neither an agent URL (http(s)://…) nor an agent id (${AGENT_ID_RULE})`)
  }
  const registry = httpUrl(options.registry)
  if (!registry) throw new MeshError('invalid', 'usage_registry_needed', `Resolving the agent id ${target} needs a registry URL (http(s)://…)`)
  const cache = options.cache ?? processCache
  const key = `${registry} ${target}`
  let pending = cache.get(key)
  if (!pending) {
    pending = lookUp(target, registry, options)
    cache.set(key, pending)
    // A failed lookup is not remembered: the next call asks again.
    pending.catch(() => cache.delete(key))
  }
  const {url, card} = await pending
  if (options.skill !== undefined && !card.skills.some((skill) => skill && typeof skill === 'object' && skill.id === options.skill)) {
    const ids = card.skills.map((skill) => (skill && typeof skill === 'object' ? printable(String(skill.id)) : '?')).slice(0, 20)
    throw new MeshError('not_found', 'unknown_skill', `${target} has no skill "${printable(options.skill).slice(0, 80)}" in its card (skills: ${ids.join(', ') || 'none'})`)
  }
  return {url, agentId: target, registry, card}
}
