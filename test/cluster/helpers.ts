/** Test helpers for the relay: an in-process relay on port 0 and a frame-collecting WebSocket client. */
import WebSocket from 'ws'
import {createLocalBus, type Bus} from '../../src/bus/bus.js'
import {createRelay} from '../../src/cluster/relay.js'
import {createMemoryClusterStore, type ClusterStore} from '../../src/cluster/store/store.js'
import type {RelayLimits, RelayOptions, RelayService} from '../../src/cluster/types.js'
import {serve, type HostedServer} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'

export interface TestRelay {
  url: string
  relay: RelayService
  store: ClusterStore
  bus: Bus
  server: HostedServer
  stop(): Promise<void>
}

export async function startRelay(options: Partial<Omit<RelayOptions, 'limits'>> & {limits?: Partial<RelayLimits>} = {}): Promise<TestRelay> {
  const store = options.store ?? createMemoryClusterStore()
  const bus = options.bus ?? createLocalBus()
  let relay!: RelayService
  const server = await serve({
    services: [
      {
        name: 'late',
        // publicUrl is known only once listening; the relay is built lazily behind this shim.
        middleware: (ctx, next) => relay.middleware(ctx, next),
        upgrade: (req, socket, head) => relay.upgrade!(req, socket, head),
        start: () => {},
        close: () => relay.close(),
      },
    ],
    logger: silentLogger,
    port: 0,
  })
  relay = createRelay({store, bus, logger: silentLogger, publicUrl: options.publicUrl ?? server.url, ...options})
  await relay.start?.()
  return {url: server.url, relay, store, bus, server, stop: () => server.stop()}
}

export async function api(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: {...(body === undefined ? {} : {'content-type': 'application/json'}), ...headers},
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return {status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined}
}

export interface Created {
  cluster_id: string
  token: string
  admin_token: string
  visibility: string
  slug?: string
  ws: string
  protocol: string
}

export async function createCluster(base: string, body: Record<string, unknown> = {}): Promise<Created> {
  const res = await api(base, 'POST', '/v1/clusters', body)
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as Created
}

type Frame = Record<string, unknown> & {type: string}

/** A member socket that records every frame and lets a test wait for one. */
export class Client {
  readonly frames: Frame[] = []
  closeCode: number | null = null
  private waiters: Array<{match: (f: Frame) => boolean; resolve: (f: Frame) => void}> = []
  private closeWaiters: Array<() => void> = []
  readonly opened: Promise<void>

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame
      this.frames.push(frame)
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true))
    })
    ws.on('close', (code) => {
      this.closeCode = code
      for (const resolve of this.closeWaiters) resolve()
    })
    ws.on('error', () => {})
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), {status: res.statusCode})))
      ws.once('error', reject)
    })
  }

  /** The first recorded or future frame matching `match`. */
  next(match: (f: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const found = this.frames.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame matched; got ${JSON.stringify(this.frames.slice(-5))}`)), timeoutMs)
      this.waiters.push({match, resolve: (f) => (clearTimeout(timer), resolve(f))})
    })
  }

  ofType(type: string) {
    return this.frames.filter((f) => f.type === type)
  }

  send(data: unknown) {
    this.ws.send(typeof data === 'string' ? data : JSON.stringify(data))
  }

  closed(): Promise<void> {
    if (this.closeCode !== null) return Promise.resolve()
    return new Promise((resolve) => this.closeWaiters.push(resolve))
  }

  close() {
    this.ws.close()
    return this.closed()
  }
}

export function wsUrl(base: string, clusterId: string, query: Record<string, string | undefined> = {}) {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined) as [string, string][])
  return `${base.replace(/^http/, 'ws')}/v1/clusters/${clusterId}/ws?${params}`
}

/** Connects and waits for `ready`. */
export async function join(base: string, clusterId: string, query: Record<string, string | undefined>): Promise<Client> {
  const client = new Client(new WebSocket(wsUrl(base, clusterId, query)))
  await client.opened
  await client.next((f) => f.type === 'ready')
  return client
}

/** Status of a refused upgrade, with the JSON error body. */
export function refusal(base: string, clusterId: string, query: Record<string, string | undefined>): Promise<{status: number; body: {error: {code: string}}}> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(base, clusterId, query))
    ws.on('open', () => reject(new Error('socket opened')))
    ws.on('error', () => {})
    ws.on('unexpected-response', (_req, res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk))
      res.on('end', () => resolve({status: res.statusCode ?? 0, body: JSON.parse(text)}))
    })
  })
}
