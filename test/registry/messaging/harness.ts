/**
 * A registry context for the messaging part's tests: the real in-memory
 * registry store and bus, and an `authenticate` that accepts `tok-<agent_id>`
 * for registered agents (the core's JWTs are tested by the core). The
 * two-process tests use the real `mesh serve registry` instead.
 */
import {once} from 'node:events'
import {createLocalBus, type Bus} from '../../../src/bus/bus.js'
import {serve, type HostedServer} from '../../../src/http/host.js'
import type {MeshService} from '../../../src/http/service.js'
import {unauthorized} from '../../../src/lib/errors.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createMessagingPart, type MessagingPart, type MessagingPartOptions} from '../../../src/registry/messaging/index.js'
import {createMemoryRegistryStore, type RegistryStore} from '../../../src/registry/store/store.js'
import type {RegistryContext, RegistryEvents} from '../../../src/registry/types.js'
import WebSocket from 'ws'

export const tokenOf = (agentId: string) => `tok-${agentId}`

export interface ContextOptions {
  store?: RegistryStore
  bus?: Bus
  clock?: () => number
}

export function testContext(options: ContextOptions = {}): RegistryContext {
  const store = options.store ?? createMemoryRegistryStore()
  const events: RegistryEvents = {publish() {}, subscribe: () => () => {}}
  return {
    store,
    bus: options.bus ?? createLocalBus(),
    clock: options.clock ?? Date.now,
    logger: silentLogger,
    publicUrl: 'http://registry.test',
    limits: {bodyBytes: 64 * 1024, perIpPerMinute: 1e6, perIdentityPerMinute: 1e6, registrationsPerIpPerHour: 1e6},
    async authenticate(bearer) {
      const token = bearer?.replace(/^Bearer\s+/i, '').trim()
      if (!token) throw unauthorized('missing_token', 'Send Authorization: Bearer <token>')
      const agentId = token.startsWith('tok-') ? token.slice(4) : ''
      if (!(await store.getAgent(agentId))) throw unauthorized('invalid_token', 'Unknown token')
      return agentId
    },
    async verifySignedRequest() {
      throw unauthorized('signature_required', 'not in these tests')
    },
    events,
  }
}

export async function registerAgents(store: RegistryStore, ...ids: string[]) {
  for (const agentId of ids) {
    await store.createAgent({agentId, apiKeyHash: 'x'.repeat(64), pubkey: null, endpoint: null, capabilities: [], createdAtMs: 0})
  }
}

/** The part as a MeshService, the way the core serves it. */
export const asService = (part: MessagingPart): MeshService => ({
  name: part.name,
  middleware: part.middleware!,
  upgrade: part.upgrade,
  start: part.start,
  close: async () => part.close(),
})

export interface Node {
  ctx: RegistryContext
  part: MessagingPart
  server: HostedServer
  url: string
  wsUrl: (agentId: string) => string
  stop(): Promise<void>
}

/** Serves a messaging part on a free port. */
export async function startNode(contextOptions: ContextOptions = {}, partOptions: MessagingPartOptions = {}, port = 0): Promise<Node> {
  const ctx = testContext(contextOptions)
  const part = createMessagingPart(ctx, partOptions)
  const server = await serve({services: [asService(part)], logger: silentLogger, port})
  return {
    ctx,
    part,
    server,
    url: server.url,
    wsUrl: (agentId) => `${server.url.replace('http', 'ws')}/v1/agents/ws?token=${tokenOf(agentId)}`,
    stop: () => server.stop(),
  }
}

/** A WebSocket client that queues every frame it receives, for `next()` to take in order. */
export class FrameClient {
  readonly frames: Record<string, unknown>[] = []
  private waiters: Array<() => void> = []
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()))
      for (const wake of this.waiters.splice(0)) wake()
    })
  }

  static async open(url: string, options?: WebSocket.ClientOptions): Promise<FrameClient> {
    const ws = new WebSocket(url, options)
    const client = new FrameClient(ws)
    await once(ws, 'open')
    return client
  }

  /** Opens and waits for the welcome frame. */
  static async connect(url: string, options?: WebSocket.ClientOptions): Promise<FrameClient> {
    const client = await FrameClient.open(url, options)
    const welcome = await client.next()
    if (welcome.type !== 'welcome') throw new Error(`expected welcome, got ${JSON.stringify(welcome)}`)
    return client
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The next frame (optionally the next of a type, skipping others), failing after `timeoutMs`. */
  async next(type?: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.frames.findIndex((frame) => type === undefined || frame.type === type)
      if (index >= 0) return this.frames.splice(index, 1)[0]!
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no ${type ?? ''} frame within ${timeoutMs} ms; have ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => (clearTimeout(timer), resolve()))
      })
    }
  }

  async close() {
    if (this.ws.readyState === WebSocket.CLOSED) return
    const closed = once(this.ws, 'close')
    this.ws.close()
    await closed
  }
}
