/**
 * The registry's operations, free of HTTP: register, token, card pushes,
 * state merges and reads. The Koa adapter (http/routes.ts) parses requests
 * into these calls and writes their results.
 * spec: registry Endpoints/Registry side; DECISIONS; docs/registry.md, HTTP API.
 */
import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {normalizePublicKey} from '../identity/keys.js'
import {conflict, invalid, MeshError, notFound, unauthorized} from '../lib/errors.js'
import {assertValid} from '../lib/schemas.js'
import {assertStorableJson} from '../lib/storable-json.js'
import {assertCardLimits, assertCardSize, mergeState, nestsDeeperThan, prepareCard} from './card.js'
import {AGENT_ID_PATTERN, AGENT_ID_RULE, API_KEY_BYTES, MAX_CARD_DEPTH, RESERVED_AGENT_IDS} from './constants.js'
import type {CoreRegistryContext} from './context.js'
import {cardFetchedAtOf, directoryRecord, didOf, handleOf, identityAttestation, isOnline, isOnlineAt, networkItem, onlineSince, patchKeeps, siteCard} from './records.js'
import type {AgentPatch, AgentRecord, JsonObject, SignerIdentity} from './types.js'

export const hashApiKey = (apiKey: string) => apiKeyDigest(apiKey).toString('hex')

const apiKeyDigest = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest()

/** `POST /v1/agents/register` body (src/registry/wire.ts gives it to clients). */
export interface RegisterBody {
  agent_id: string
  capabilities?: string[]
  pubkey?: string
  endpoint?: string
  description?: string
}

interface PatchMeBody {
  description?: string
  capabilities?: string[]
  agent_card?: JsonObject
  webhook?: {url: string | null} | null
}

/** Refuses an id that could never name an agent (400), before any lookup. */
export function assertAgentId(agentId: string): void {
  if (!AGENT_ID_PATTERN.test(agentId)) {
    throw invalid('invalid_agent_id', `agent_id is ${AGENT_ID_RULE}`, {field: 'agent_id'})
  }
}

/** Bodies nest one level above the card; deeper input is refused before schema work. */
function assertBodyDepth(body: unknown, field: string) {
  if (nestsDeeperThan(body, MAX_CARD_DEPTH + 1)) {
    throw invalid('card_too_deep', `${field} nests deeper than ${MAX_CARD_DEPTH} levels`, {field})
  }
}

export function createRegistryOperations(ctx: CoreRegistryContext) {
  const {store, events, clock, publicUrl} = ctx

  /**
   * issue 18 (a deliberate deviation from spec Authentication 3, docs/registry.md):
   * a v1 Mesh-Sig names no server, so it may be a signature made for another
   * registry replayed here within the skew; what it would grant here is an
   * identity, so only a v2 signature naming this registry counts.
   */
  const v2Required = () =>
    unauthorized(
      'mesh_sig_v2_required',
      `Binding a pubkey or rotating the api_key needs a Mesh-Sig v2 signature naming this registry (${publicUrl}): a v1 signature names no server, so it could be a replay of one made for another registry`,
    )

  async function mustGet(agentId: string): Promise<AgentRecord> {
    const agent = await store.getAgent(agentId)
    if (!agent) throw notFound('agent_not_found', `No agent "${agentId}" is registered`)
    return agent
  }

  return {
    /**
     * spec: register → {agent_id, api_key, token, hub_url, message}. A pubkey
     * is bound only with a Mesh-Sig from that key. A taken id is 409
     * `agent_exists`, unless the request is signed by the bound key: then the
     * api_key is rotated (DECISIONS: lost api_key).
     */
    async register(body: unknown, signer: SignerIdentity | null) {
      const input = assertValid<RegisterBody>('registry-register', body)
      assertStorableJson(input)
      if (RESERVED_AGENT_IDS.has(input.agent_id.toLowerCase())) {
        throw invalid('reserved_agent_id', `agent_id "${input.agent_id}" is reserved by a registry route`, {field: 'agent_id'})
      }
      let pubkey: string | null = null
      if (input.pubkey !== undefined) {
        pubkey = normalizePublicKey(input.pubkey)
        if (!pubkey) throw invalid('invalid_pubkey', 'pubkey must be base64 of a raw 32-byte Ed25519 public key', {field: 'pubkey'})
        if (!signer) throw unauthorized('signature_required', 'Binding a pubkey needs a Mesh-Sig header signed by that key')
        if (signer.pubkey !== pubkey) throw unauthorized('pubkey_mismatch', 'The Mesh-Sig was not made by the pubkey being bound')
        if (!signer.audienceBound) throw v2Required()
      }
      const apiKey = randomBytes(API_KEY_BYTES).toString('hex')
      const apiKeyHash = hashApiKey(apiKey)
      const now = clock()
      const created = await store.createAgent({
        agentId: input.agent_id,
        apiKeyHash,
        pubkey,
        endpoint: input.endpoint ?? null,
        capabilities: input.capabilities ?? [],
        createdAtMs: now,
      })
      let rotated = false
      if (created) {
        if (input.description) await store.updateAgent(input.agent_id, {description: input.description})
        events.publish('agent.registered', input.agent_id)
      } else {
        const existing = await mustGet(input.agent_id)
        if (!signer || !existing.pubkey || existing.pubkey !== signer.pubkey) {
          throw conflict('agent_exists', `agent_id "${input.agent_id}" is already registered`, {field: 'agent_id'})
        }
        if (!signer.audienceBound) throw v2Required()
        const patch: AgentPatch = {apiKeyHash}
        if (input.endpoint !== undefined) patch.endpoint = input.endpoint
        if (input.capabilities !== undefined) {
          patch.capabilities = input.capabilities
          // DECISIONS: capabilities equal the card's tags; the stored card follows, as with PATCH me.
          if (existing.agentCard) {
            patch.agentCard = {...existing.agentCard, tags: input.capabilities}
            assertCardSize(patch.agentCard)
          }
        }
        if (input.description !== undefined) patch.description = input.description
        await store.updateAgent(input.agent_id, patch)
        // The kh check already refuses the old key's tokens on every node; this node also stops remembering them.
        ctx.tokens.forgetAgent(input.agent_id)
        events.publish('agent.card', input.agent_id)
        rotated = true
      }
      const stored = await mustGet(input.agent_id)
      const minted = ctx.tokens.mint(input.agent_id, apiKeyHash)
      ctx.metrics.registration()
      return {
        status: rotated ? 200 : 201,
        body: {
          agent_id: input.agent_id,
          api_key: apiKey,
          token: minted.token,
          expires_at: new Date(minted.expiresAtMs).toISOString(),
          hub_url: publicUrl,
          handle: handleOf(publicUrl, input.agent_id),
          pubkey: stored.pubkey,
          did: didOf(stored),
          verified: stored.pubkey !== null,
          rotated,
          message: rotated
            ? 'api_key rotated; the old key and its tokens no longer work. Keep the new api_key: it is shown only once.'
            : 'Registered. Keep the api_key: it is shown only once. Call /v1/agents/token at least every 5 minutes to stay online.',
        },
      }
    },

    /** spec: {agent_id, api_key} → 24 h JWT; marks the agent online (the heartbeat). */
    async token(body: unknown) {
      const input = assertValid<{agent_id: string; api_key: string}>('registry-token', body)
      const agentId = input.agent_id
      // Only the key hash is read: the heartbeat's token call needs nothing else of the record. An id no agent
      // can have is not looked up (PostgreSQL refuses U+0000 in a query with an error, not an empty result).
      const apiKeyHash = AGENT_ID_PATTERN.test(agentId) ? await store.getApiKeyHash(agentId) : null
      const given = apiKeyDigest(input.api_key)
      // Compare even for an unknown agent, so timing does not tell which ids exist.
      const expected = Buffer.from(apiKeyHash ?? '0'.repeat(64), 'hex')
      if (apiKeyHash === null || expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw unauthorized('invalid_credentials', 'agent_id or api_key is wrong')
      }
      const now = clock()
      // Nothing is answered before the watermark is committed.
      const previous = await store.touchAgent(agentId, now)
      const minted = ctx.tokens.mint(agentId, apiKeyHash)
      // spec: online from this call on; announced only on the transition (never seen, or seen over 5 minutes ago).
      if (previous === null || (previous !== undefined && !isOnlineAt(previous, now))) {
        events.publish('agent.online', agentId)
      }
      ctx.metrics.heartbeat()
      return {
        token: minted.token,
        agent_id: agentId,
        token_type: 'Bearer',
        expires_in: Math.round((minted.expiresAtMs - now) / 1000),
        expires_at: new Date(minted.expiresAtMs).toISOString(),
        online: true,
        hub_url: publicUrl,
      }
    },

    /**
     * spec: PATCH me — the card push of every heartbeat (plus webhook set/clear).
     * `agent` is the caller's record as authentication read it. A push that
     * changes nothing is not written and not announced (`agent.card` goes
     * out only when the stored agent changed).
     */
    async patchMe(agent: AgentRecord, body: unknown, isAdmin: boolean) {
      const agentId = agent.agentId
      assertBodyDepth(body, 'agent_card')
      const input = assertValid<PatchMeBody>('registry-patch-me', body)
      let patch: AgentPatch = {}
      let warnings: string[] = []
      if (input.agent_card) {
        const prepared = prepareCard({
          card: input.agent_card,
          bodyCapabilities: input.capabilities,
          storedCapabilities: agent.capabilities,
          storedOwnerClass: agent.ownerClass,
          storedEndpoint: agent.endpoint,
          isAdmin,
        })
        warnings = prepared.warnings
        patch = {
          agentCard: prepared.card,
          capabilities: prepared.capabilities,
          displayName: prepared.displayName,
          ownerClass: prepared.ownerClass,
          brand: prepared.brand,
          endpoint: prepared.endpoint,
        }
      } else if (input.capabilities) {
        patch.capabilities = input.capabilities
        if (agent.agentCard) patch.agentCard = {...agent.agentCard, tags: input.capabilities}
      }
      const description = input.description ?? (input.agent_card?.description as string | undefined)
      if (description !== undefined) patch.description = description
      // The record authentication just read answers for a repeated card; the store compares again otherwise.
      const keeps = patchKeeps(agent, patch)
      // What will be written is checked before any write (the webhook's too). A repeated card passed these
      // checks when it was stored, so the heartbeat's usual push skips them. Limits apply to the card as
      // stored (tags and owner_class rewritten), which is never smaller than the pushed one; its depth is
      // already bounded: the body passed assertBodyDepth, and the rewritten fields are flat.
      if (!keeps || input.webhook !== undefined) assertStorableJson(input)
      if (!keeps && patch.agentCard) assertCardSize(patch.agentCard)
      let webhookSecret: string | undefined
      if (input.webhook !== undefined) {
        if (!ctx.webhooks) throw new MeshError('unavailable', 'webhooks_unavailable', 'This registry does not deliver webhooks')
        const result = await ctx.webhooks.set(agentId, input.webhook?.url ?? null)
        webhookSecret = result.webhook_secret
      }
      if (!keeps) {
        const outcome = await store.applyAgentPatch(agentId, patch)
        if (outcome === 'missing') throw notFound('agent_not_found', `No agent "${agentId}" is registered`)
        if (outcome === 'changed') events.publish('agent.card', agentId)
      }
      // The stored agent is now the read record with the patch applied; no second read.
      return {
        ok: true as const,
        agent_id: agentId,
        display_name: (patch.displayName !== undefined ? patch.displayName : agent.displayName) ?? agentId,
        owner_class: patch.ownerClass ?? agent.ownerClass,
        brand: patch.brand !== undefined ? patch.brand : agent.brand,
        capabilities: patch.capabilities ?? agent.capabilities,
        ...(warnings.length ? {warnings} : {}),
        ...(webhookSecret ? {webhook_secret: webhookSecret} : {}),
        ...(input.webhook !== undefined ? {webhook: input.webhook?.url ?? null} : {}),
      }
    },

    /** spec: POST me/state — shallow merge of the allowed keys; limits after the merge. */
    async mergeState(agent: AgentRecord, body: unknown) {
      const agentId = agent.agentId
      assertBodyDepth(body, 'state')
      const {card, ignoredKeys} = mergeState(agent.agentCard, body as JsonObject)
      assertCardLimits(card)
      assertValid('discovery-card', card, 'invalid_card')
      const patch: AgentPatch = {agentCard: card}
      if (Object.prototype.hasOwnProperty.call(body, 'tags')) {
        patch.capabilities = (card.tags as string[] | undefined) ?? []
        card.tags = patch.capabilities
      }
      const outcome = await store.applyAgentPatch(agentId, patch)
      if (outcome === 'missing') throw notFound('agent_not_found', `No agent "${agentId}" is registered`)
      if (outcome === 'changed') events.publish('agent.card', agentId)
      return {ok: true as const, agent_id: agentId, agent_card: card, ignored_keys: ignoredKeys}
    },

    async record(agentId: string) {
      assertAgentId(agentId)
      return directoryRecord(await mustGet(agentId), clock(), publicUrl)
    },

    async identity(agentId: string) {
      assertAgentId(agentId)
      return identityAttestation(await mustGet(agentId), clock(), publicUrl)
    },

    async card(agentId: string) {
      assertAgentId(agentId)
      const agent = await mustGet(agentId)
      return {agent, card: siteCard(agent), record: directoryRecord(agent, clock(), publicUrl)}
    },

    /**
     * spec Site: the PublicCard of a live agent — DECISIONS: the prober's
     * cached copy (the last good one, kept across failed fetches) with the
     * time it was fetched. Never fetched, or offline → 404 `not_live`.
     */
    async wellKnown(agentId: string): Promise<{card: JsonObject; fetchedAt: string}> {
      assertAgentId(agentId)
      const agent = await mustGet(agentId)
      const card = agent.probe?.card
      if (!card) throw notFound('not_live', `No live PublicCard is known for "${agentId}" (never fetched by the prober)`)
      if (!isOnline(agent, clock())) throw notFound('not_live', `"${agentId}" is offline (no heartbeat for 5 minutes); its PublicCard is served only while it is live`)
      return {card, fetchedAt: cardFetchedAtOf(agent)!}
    },

    /** Keyset listing; `view` picks the full directory record or the network item. */
    async list(query: {online?: boolean; after?: string; limit: number}, view: 'record' | 'network') {
      const now = clock()
      const page = await store.listAgents({online: query.online, onlineSinceMs: onlineSince(now), after: query.after, limit: query.limit})
      const agents = page.agents.map((agent) => (view === 'record' ? directoryRecord(agent, now, publicUrl) : networkItem(agent, now)))
      return {agents, nextAfter: page.nextAfter}
    },
  }
}

export type RegistryOperations = ReturnType<typeof createRegistryOperations>
