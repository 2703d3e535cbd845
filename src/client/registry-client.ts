/**
 * Typed client of a registry's agent routes (spec "Registry side"): register
 * (optionally Mesh-Sig signed), token, PATCH me, me/state, directory record,
 * identity, listing. Registry errors come back as MeshErrors with the
 * registry's stable code; a network failure is `registry_unreachable`.
 * Importing this file loads nothing heavy.
 */
import type {KeyObject} from 'node:crypto'
import {signRequest} from '../identity/mesh-sig.js'
import {MeshError, type ErrorKind} from '../lib/errors.js'

export {DEFAULT_REGISTRY_URL, REGISTRY_ENV, resolveRegistryUrl} from './search-client.js'

/** How long one registry call may take. */
export const REGISTRY_TIMEOUT_MS = 15_000

export interface RegisterRequest {
  agent_id: string
  capabilities?: string[]
  pubkey?: string
  endpoint?: string
  description?: string
}

export interface RegisterAnswer {
  agent_id: string
  api_key: string
  token: string
  expires_at: string
  hub_url: string
  handle: string
  pubkey: string | null
  did: string | null
  verified: boolean
  rotated: boolean
  message: string
}

export interface TokenAnswer {
  token: string
  agent_id: string
  token_type: 'Bearer'
  expires_in: number
  expires_at: string
  online: true
  hub_url: string
}

export interface PatchMeAnswer {
  ok: true
  agent_id: string
  display_name: string
  owner_class: string
  brand: string | null
  capabilities: string[]
  warnings?: string[]
  webhook_secret?: string
  webhook?: string | null
}

export interface AgentRecordView {
  agent_id: string
  display_name: string
  owner_class: string
  brand: string | null
  description: string | null
  capabilities: string[]
  online: boolean
  live: 0 | 1
  last_seen: string | null
  registered: string
  endpoint: string | null
  handle: string
  pubkey: string | null
  did: string | null
  verified: boolean
  operational: boolean | null
  card_match: string | null
  probed_at: string | null
  agent_card: Record<string, unknown> | null
}

export interface IdentityView {
  agent_id: string
  handle: string
  pubkey: string | null
  did: string | null
  verified: boolean
  endpoint: string | null
  registered: string
  online: boolean
}

export interface RegistryClientOptions {
  /** Base URL, e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  registry: string
  fetch?: typeof fetch
  timeoutMs?: number
}

const STATUS_KIND: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'invalid',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
  503: 'unavailable',
}

interface CallOptions {
  body?: unknown
  bearer?: string
  adminKey?: string
  /** Sign the request with this Ed25519 private key (PKCS#8 PEM or KeyObject). */
  signWith?: string | KeyObject
  query?: Record<string, string | number | boolean | undefined>
}

export function createRegistryClient(options: RegistryClientOptions) {
  const base = options.registry.replace(/\/+$/, '')
  const doFetch = options.fetch ?? globalThis.fetch

  async function call<T>(method: string, path: string, call: CallOptions = {}): Promise<T> {
    const url = new URL(base + path)
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value))
    const body = call.body === undefined ? undefined : JSON.stringify(call.body)
    const headers: Record<string, string> = {accept: 'application/json'}
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (call.bearer) headers.authorization = `Bearer ${call.bearer}`
    if (call.adminKey) headers['x-admin-key'] = call.adminKey
    // spec Mesh-Sig: the signed path is the path with its query string, as the server receives it.
    if (call.signWith) headers['mesh-sig'] = signRequest({method, path: url.pathname + url.search, body: body ?? '', privateKey: call.signWith})
    let response: Response
    try {
      response = await doFetch(url, {method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? REGISTRY_TIMEOUT_MS)})
    } catch (error) {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      throw new MeshError('unavailable', 'registry_unreachable', `Cannot reach the registry at ${base}: ${reason}`, {cause: error})
    }
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (!response.ok) {
      const error = (parsed as {error?: {code?: unknown; message?: unknown; field?: unknown}} | undefined)?.error
      const kind = STATUS_KIND[response.status] ?? (response.status >= 500 ? 'unavailable' : 'invalid')
      const details: Record<string, unknown> = {status: response.status}
      const retryAfter = Number(response.headers.get('retry-after'))
      if (Number.isFinite(retryAfter) && retryAfter > 0) details.retry_after = retryAfter
      throw new MeshError(
        kind,
        typeof error?.code === 'string' ? error.code : `http_${response.status}`,
        typeof error?.message === 'string' ? error.message : `The registry answered ${response.status} to ${method} ${path}`,
        {field: typeof error?.field === 'string' ? error.field : undefined, details},
      )
    }
    if (parsed === undefined || typeof parsed !== 'object') {
      throw new MeshError('unavailable', 'registry_bad_answer', `The registry at ${base} answered ${method} ${path} without a JSON object`)
    }
    return parsed as T
  }

  const agentPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}`

  return {
    registry: base,
    /** POST /v1/agents/register; `signWith` binds (or proves) the pubkey with a Mesh-Sig. */
    register: (body: RegisterRequest, signWith?: string | KeyObject) => call<RegisterAnswer>('POST', '/v1/agents/register', {body, signWith}),
    /** POST /v1/agents/token: the heartbeat's first step. */
    token: (agentId: string, apiKey: string) => call<TokenAnswer>('POST', '/v1/agents/token', {body: {agent_id: agentId, api_key: apiKey}}),
    /** PATCH /v1/agents/me: the heartbeat's second step (card push). */
    patchMe: (token: string, body: Record<string, unknown>, adminKey?: string) => call<PatchMeAnswer>('PATCH', '/v1/agents/me', {body, bearer: token, adminKey}),
    /** POST /v1/agents/me/state: shallow merge into the stored card. */
    state: (token: string, body: Record<string, unknown>) =>
      call<{ok: true; agent_id: string; agent_card: Record<string, unknown>; ignored_keys: string[]}>('POST', '/v1/agents/me/state', {body, bearer: token}),
    getAgent: (agentId: string) => call<AgentRecordView>('GET', agentPath(agentId)),
    identity: (agentId: string) => call<IdentityView>('GET', `${agentPath(agentId)}/identity`),
    list: (query: {online?: boolean; cursor?: string; limit?: number} = {}) =>
      call<{agents: AgentRecordView[]; next_cursor: string | null}>('GET', '/v1/agents', {query}),
  }
}

export type RegistryClient = ReturnType<typeof createRegistryClient>
