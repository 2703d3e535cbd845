/**
 * Typed client of a registry's agent routes (spec "Registry side"): register
 * (optionally Mesh-Sig signed), token, PATCH me, me/state, directory record,
 * identity, listing. Registry errors come back as MeshErrors with the
 * registry's stable code; a network failure is `registry_unreachable`.
 * Importing this file loads nothing heavy.
 */
import type {KeyObject} from 'node:crypto'
import {signRequest} from '../../identity/mesh-sig.js'
import type {DirectoryRecord, IdentityView, PatchMeAnswer, RegisterAnswer, RegisterRequest, TokenAnswer} from '../../registry/wire.js'
import {shapeProblem, type AnswerShape} from '../answer-shape.js'
import {callJson} from '../http-json.js'

export {DEFAULT_REGISTRY_URL, REGISTRY_ENV, resolveRegistryUrl} from './search-client.js'

/** How long one registry call may take. */
export const REGISTRY_TIMEOUT_MS = 15_000

export type {IdentityView, PatchMeAnswer, RegisterAnswer, RegisterRequest, TokenAnswer}
/** The directory record of `GET /v1/agents/<id>`. */
export type AgentRecordView = DirectoryRecord

/** An agent logged in to a registry: what the inbox client and watch act with (src/agent/session.ts opens one). */
export interface RegistrySession {
  registry: string
  agentId: string
  /** A fresh 24 h JWT. */
  token: string
  /** Mints a new token (long-running watch reconnecting after a day). */
  refresh(): Promise<string>
}

export interface RegistryClientOptions {
  /** Base URL, e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  registry: string
  fetch?: typeof fetch
  timeoutMs?: number
}

interface CallOptions {
  body?: unknown
  bearer?: string
  adminKey?: string
  /** Sign the request with this Ed25519 private key (PKCS#8 PEM or KeyObject). */
  signWith?: string | KeyObject
  query?: Record<string, string | number | boolean | undefined>
  /** The fields the caller reads from the answer (checked before it is returned). */
  shape: AnswerShape
}

// What each route's caller reads; a registry that answers otherwise is not one this client can use.
const REGISTERED: AnswerShape = {agent_id: 'string', api_key: 'string', handle: 'string', pubkey: 'string?', did: 'string?', verified: 'boolean', rotated: 'boolean'}
const TOKEN: AnswerShape = {token: 'string'}
const PATCHED: AnswerShape = {display_name: 'string', owner_class: 'string'}
const STATE: AnswerShape = {agent_card: 'object', ignored_keys: 'array'}
const RECORD: AnswerShape = {agent_id: 'string', display_name: 'string', owner_class: 'string', capabilities: 'array', online: 'boolean', handle: 'string', did: 'string?', operational: 'boolean?'}
const IDENTITY: AnswerShape = {agent_id: 'string', handle: 'string', pubkey: 'string?', did: 'string?', verified: 'boolean', registered: 'string', online: 'boolean'}
const LISTING: AnswerShape = {agents: 'array', next_cursor: 'string?'}

export function createRegistryClient(options: RegistryClientOptions) {
  const base = options.registry.replace(/\/+$/, '')

  async function call<T>(method: string, path: string, call: CallOptions): Promise<T> {
    const url = new URL(base + path)
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value))
    const body = call.body === undefined ? undefined : JSON.stringify(call.body)
    const headers: Record<string, string> = {}
    if (call.bearer) headers.authorization = `Bearer ${call.bearer}`
    if (call.adminKey) headers['x-admin-key'] = call.adminKey
    // spec Mesh-Sig: the signed path is the path with its query string, as the server receives it;
    // issue 18: v2, bound to this registry's origin, so it cannot be replayed to another registry.
    if (call.signWith) headers['mesh-sig'] = signRequest({method, path: url.pathname + url.search, body: body ?? '', privateKey: call.signWith, audience: url})
    return callJson<T>({
      method,
      url,
      headers,
      body,
      timeoutMs: options.timeoutMs ?? REGISTRY_TIMEOUT_MS,
      fetch: options.fetch,
      service: 'registry',
      check: (answer) => shapeProblem(answer, call.shape),
    })
  }

  const agentPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}`

  return {
    registry: base,
    /** POST /v1/agents/register; `signWith` binds (or proves) the pubkey with a Mesh-Sig. */
    register: (body: RegisterRequest, signWith?: string | KeyObject) => call<RegisterAnswer>('POST', '/v1/agents/register', {body, signWith, shape: REGISTERED}),
    /** POST /v1/agents/token: the heartbeat's first step. */
    token: (agentId: string, apiKey: string) => call<TokenAnswer>('POST', '/v1/agents/token', {body: {agent_id: agentId, api_key: apiKey}, shape: TOKEN}),
    /** PATCH /v1/agents/me: the heartbeat's second step (card push). */
    patchMe: (token: string, body: Record<string, unknown>, adminKey?: string) => call<PatchMeAnswer>('PATCH', '/v1/agents/me', {body, bearer: token, adminKey, shape: PATCHED}),
    /** POST /v1/agents/me/state: shallow merge into the stored card. */
    state: (token: string, body: Record<string, unknown>) =>
      call<{ok: true; agent_id: string; agent_card: Record<string, unknown>; ignored_keys: string[]}>('POST', '/v1/agents/me/state', {body, bearer: token, shape: STATE}),
    getAgent: (agentId: string) => call<AgentRecordView>('GET', agentPath(agentId), {shape: RECORD}),
    identity: (agentId: string) => call<IdentityView>('GET', `${agentPath(agentId)}/identity`, {shape: IDENTITY}),
    list: (query: {online?: boolean; cursor?: string; limit?: number} = {}) =>
      call<{agents: AgentRecordView[]; next_cursor: string | null}>('GET', '/v1/agents', {query, shape: LISTING}),
  }
}

export type RegistryClient = ReturnType<typeof createRegistryClient>
