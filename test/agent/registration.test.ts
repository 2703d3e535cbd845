import {mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {apiKeyName, identityKeyName} from '../../src/agent/credentials.js'
import type {DiscoveryCard} from '../../src/agent/discovery-card.js'
import {keepRegistered, type KeepRegisteredOptions, type ServedAgentEvent} from '../../src/agent/registration.js'
import {exportPublicKey, importPrivateKey} from '../../src/identity/keys.js'
import {createFileSecretStore} from '../../src/identity/secrets.js'
import {MeshError} from '../../src/lib/errors.js'

const REGISTRY = 'http://registry.test:8080'
const card: DiscoveryCard = {
  name: 'Echo',
  endpoint: 'http://127.0.0.1:8090',
  description: 'Echoes.',
  tags: ['echo'],
  accepts: ['application/json'],
  produces: ['application/json'],
  protocols: ['http'],
  pricing: {unit: 'request', amount: 0, currency: 'free'},
  availability: {now: true},
  owner_class: 'third-party',
}

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

type Step = Error | 'ok'

/**
 * A registry client that records calls; `register` and `token` follow their
 * scripts (then succeed). `patchMe` aborts the run after `beats` beats, so
 * every test ends on its own.
 */
function fakeRegistry(script: {register?: Step[]; token?: Step[]} = {}, beats = 1) {
  const calls: Array<{call: string; body?: Record<string, unknown>; signed?: boolean; apiKey?: string}> = []
  const controller = new AbortController()
  let issued = 0
  let patched = 0
  const client: NonNullable<KeepRegisteredOptions['client']> = {
    async register(body, signWith) {
      calls.push({call: 'register', body: body as never, signed: signWith !== undefined})
      const step = script.register?.shift() ?? 'ok'
      if (step instanceof Error) throw step
      // The bound key is the one that signed: the registry checks the Mesh-Sig against body.pubkey.
      expect(exportPublicKey(importPrivateKey(signWith as string))).toBe(body.pubkey)
      return {agent_id: body.agent_id, api_key: `key-${++issued}`, handle: `${REGISTRY}/agent/${body.agent_id}`, pubkey: body.pubkey, did: 'did:key:z6Mk', verified: true, rotated: issued > 1} as never
    },
    async token(agentId, apiKey) {
      calls.push({call: 'token', apiKey})
      const step = script.token?.shift() ?? 'ok'
      if (step instanceof Error) throw step
      return {token: `jwt-${agentId}`} as never
    },
    async patchMe(_token, body) {
      calls.push({call: 'patch', body})
      if (++patched >= beats) controller.abort()
      return {ok: true, display_name: 'Echo', owner_class: 'third-party'} as never
    },
  }
  return {client, calls, controller}
}

async function setup({fake, ...over}: Partial<KeepRegisteredOptions> & {fake?: ReturnType<typeof fakeRegistry>} = {}) {
  const base = await mkdtemp(join(tmpdir(), 'mesh-registration-'))
  dirs.push(base)
  // As in a project: credentials/ with its sibling agents/.
  const dir = join(base, 'credentials')
  const store = createFileSecretStore(dir)
  const registry = fake ?? fakeRegistry()
  const events: ServedAgentEvent[] = []
  const options: KeepRegisteredOptions = {
    registry: REGISTRY,
    agentId: 'echo',
    credentialsDir: dir,
    loadCard: () => card,
    intervalMs: 1,
    signal: registry.controller.signal,
    onEvent: (event) => events.push(event),
    client: registry.client,
    store,
    maxBackoffMs: 2,
    random: () => 0,
    ...over,
  }
  return {dir, store, registry, events, options, run: () => keepRegistered(options)}
}

describe('keepRegistered', () => {
  it('registers a new agent with its identity key, keeps the api_key and profile like mesh register, then beats', async () => {
    const {dir, store, registry, events, run} = await setup()
    expect(await run()).toEqual({beats: 1})
    expect(registry.calls.map((c) => c.call)).toEqual(['register', 'token', 'patch'])
    expect(registry.calls[0]).toMatchObject({signed: true, body: {agent_id: 'echo', endpoint: 'http://127.0.0.1:8090', capabilities: ['echo'], description: 'Echoes.'}})
    expect(registry.calls[1].apiKey).toBe('key-1')
    expect(registry.calls[2].body).toMatchObject({description: 'Echoes.', capabilities: ['echo'], agent_card: card})
    expect(await store.get(apiKeyName('echo', REGISTRY))).toBe('key-1')
    expect(await store.get(identityKeyName('echo'))).toContain('PRIVATE KEY')
    const identity = parse(await readFile(join(dir, '..', 'agents', 'echo.yaml'), 'utf8'))
    expect(identity).toMatchObject({id: 'echo', registry: REGISTRY, handle: `${REGISTRY}/agent/echo`, key: {store: 'file', name: 'identity.echo'}})
    expect(events.map((e) => e.event)).toEqual(['registered', 'heartbeat', 'stopped'])
    expect(events[0]).toMatchObject({event: 'registered', agent_id: 'echo', registry: REGISTRY, rotated: false, identity_key: 'created', verified: true})
    expect(JSON.stringify(events)).not.toContain('key-1')
  })

  it('reuses a stored api_key without registering', async () => {
    const {store, registry, run} = await setup()
    await store.set(apiKeyName('echo', REGISTRY), 'stored-key')
    await run()
    expect(registry.calls.map((c) => [c.call, c.apiKey])).toEqual([['token', 'stored-key'], ['patch', undefined]])
  })

  it('registers again with the identity key when the stored api_key is refused (a reset registry), then beats on the new key', async () => {
    const refused = new MeshError('unauthorized', 'invalid_credentials', 'agent_id or api_key is wrong')
    const registry = fakeRegistry({token: [refused]}, 2)
    const {store, events, run} = await setup({fake: registry})
    await store.set(apiKeyName('echo', REGISTRY), 'old-key')
    expect(await run()).toEqual({beats: 2})
    expect(registry.calls.map((c) => c.call)).toEqual(['token', 'register', 'token', 'patch', 'token', 'patch'])
    expect(events.map((e) => e.event)).toEqual(['credentials_rejected', 'registered', 'heartbeat', 'heartbeat', 'stopped'])
    expect(events.filter((e) => e.event === 'heartbeat').map((e) => (e as {beat: number}).beat)).toEqual([1, 2])
    expect(await store.get(apiKeyName('echo', REGISTRY))).toBe('key-1')
  })

  it('never replaces an api_key given by the operator (MESH_API_KEY): a refusal stops it', async () => {
    const refused = new MeshError('unauthorized', 'invalid_credentials', 'agent_id or api_key is wrong')
    const {registry, run} = await setup({apiKey: 'env-key', fake: fakeRegistry({token: [refused]})})
    await expect(run()).rejects.toBe(refused)
    expect(registry.calls.map((c) => c.call)).toEqual(['token'])
  })

  it('an id owned by another key is a clear conflict; a refused card stops it too', async () => {
    const taken = new MeshError('conflict', 'agent_exists', 'agent_id "echo" is already registered')
    const {run, store} = await setup({fake: fakeRegistry({register: [taken]})})
    const error = await run().then(() => null, (e: MeshError) => e)
    expect(error).toMatchObject({code: 'agent_exists', kind: 'conflict'})
    expect(error!.message).toContain('--agent-id')
    expect(error!.message).toContain(store.location)

    const tooBig = new MeshError('too_large', 'card_too_large', 'agent_card is too large')
    await expect((await setup({fake: fakeRegistry({register: [tooBig]})})).run()).rejects.toBe(tooBig)
  })

  it('retries a registry that is down, with backoff, then registers', async () => {
    const down = new MeshError('unavailable', 'registry_unreachable', 'Cannot reach the registry')
    const {events, run} = await setup({fake: fakeRegistry({register: [down, down]})})
    await run()
    const retries = events.filter((e) => e.event === 'retry')
    expect(retries).toEqual([
      expect.objectContaining({step: 'register', attempt: 1, error: {code: 'registry_unreachable', message: 'Cannot reach the registry'}, next_in_ms: 1}),
      expect.objectContaining({step: 'register', attempt: 2, next_in_ms: 1}),
    ])
    expect(events.map((e) => e.event).slice(-3)).toEqual(['registered', 'heartbeat', 'stopped'])
  })

  it('stops at once when aborted while the registry is down', async () => {
    const down = new MeshError('unavailable', 'registry_unreachable', 'down')
    const registry = fakeRegistry({register: [down, down, down, down]})
    const events: ServedAgentEvent[] = []
    const {options} = await setup({
      fake: registry,
      onEvent: (event) => {
        events.push(event)
        if (event.event === 'retry') registry.controller.abort()
      },
    })
    expect(await keepRegistered(options)).toEqual({beats: 0})
    expect(events.map((e) => e.event)).toEqual(['retry', 'stopped'])
  })
})
