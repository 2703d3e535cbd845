/** An in-process registry (memory store, local bus, controllable clock) driven with supertest. */
import {randomBytes} from 'node:crypto'
import request from 'supertest'
import {createLocalBus} from '../../src/bus/bus.js'
import {createHostApp} from '../../src/http/host.js'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import {silentLogger} from '../../src/lib/log.js'
import {createRegistryContext} from '../../src/registry/context.js'
import {createRegistry} from '../../src/registry/registry.js'
import {createMemoryRegistryStore} from '../../src/registry/store/store.js'
import type {RegistryEvent, RegistryLimits, RegistryPart, RegistryContext} from '../../src/registry/types.js'

export const START_MS = Date.UTC(2026, 5, 15, 12, 0, 0)
export const ADMIN_KEY = 'admin-' + 'k'.repeat(40)
/** The harness registry's public URL: the audience its clients' Mesh-Sig v2 names (issue 18). */
export const REGISTRY_URL = 'https://registry.example'

export interface HarnessOptions {
  limits?: Partial<RegistryLimits>
  /** Behind a proxy (the host trusts X-Forwarded-*), checking Mesh-Sig v2 against the origin each request names (issue 18). */
  behindProxyWithoutPublicUrl?: boolean
  parts?: (ctx: RegistryContext) => RegistryPart[]
}

export function createHarness(options: HarnessOptions = {}) {
  let now = START_MS
  const clock = () => now
  const store = createMemoryRegistryStore()
  const bus = createLocalBus()
  const context = createRegistryContext({
    store,
    bus,
    clock,
    logger: silentLogger,
    publicUrl: `${REGISTRY_URL}/`,
    jwtSecret: randomBytes(32),
    adminKey: ADMIN_KEY,
    limits: options.limits,
    audienceFromRequest: options.behindProxyWithoutPublicUrl,
  })
  const parts = options.parts?.(context) ?? []
  const registry = createRegistry({context, parts, sweepIntervalMs: 60_000})
  const app = createHostApp({services: [registry], logger: silentLogger, proxy: options.behindProxyWithoutPublicUrl})
  const events: RegistryEvent[] = []
  context.events.subscribe((event) => events.push(event))
  const http = request(app.callback())
  return {
    http,
    store,
    registry,
    context,
    events,
    advance(ms: number) {
      now += ms
    },
    now: clock,
    /** Registers an agent and returns the registration body. */
    async register(agentId: string, extra: Record<string, unknown> = {}) {
      const res = await http.post('/v1/agents/register').send({agent_id: agentId, capabilities: ['demo'], ...extra})
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body as {agent_id: string; api_key: string; token: string}
    },
    /** Registers with a bound Ed25519 key (signed proof: Mesh-Sig v2 naming this registry, as mesh clients sign). */
    async registerSigned(agentId: string, keys = generateIdentityKeyPair(), extra: Record<string, unknown> = {}) {
      const body = JSON.stringify({agent_id: agentId, capabilities: ['demo'], pubkey: keys.publicKey, ...extra})
      const sig = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts: Math.floor(now / 1000), audience: REGISTRY_URL})
      const res = await http.post('/v1/agents/register').set('content-type', 'application/json').set('Mesh-Sig', sig).send(body)
      return {res, keys}
    },
    async token(agentId: string, apiKey: string) {
      const res = await http.post('/v1/agents/token').send({agent_id: agentId, api_key: apiKey})
      return res.body.token as string
    },
  }
}

export type Harness = ReturnType<typeof createHarness>
