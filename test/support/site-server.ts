/**
 * A whole `mesh serve registry` (registry, relay, search, web pages) on
 * SQLite in a temp data dir, hosted on port 0, with a clock the test moves:
 * what the site's page and browser tests open. Helpers register agents and
 * push their cards over the real HTTP routes.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {serve, type HostedServer} from '../../src/http/host.js'
import type {MeshService} from '../../src/http/service.js'
import {silentLogger} from '../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer, type RegistryServerConfig} from '../../src/registry/compose.js'

export const SITE_START_MS = Date.UTC(2026, 5, 15, 12, 0, 0)

export interface SiteServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string
  server: RegistryServer
  hosted: HostedServer
  /** Moves the registry's clock forward. */
  advance(ms: number): void
  now(): number
  /** Registers `agentId` and returns its api_key and a fresh token. */
  register(agentId: string, body?: Record<string, unknown>): Promise<{api_key: string; token: string}>
  /** PATCH me with the card. Only a token call (POST /v1/agents/token) marks the agent seen, i.e. online. */
  pushCard(token: string, card: Record<string, unknown>): Promise<void>
  /** Creates a public cluster; returns the creation body (cluster_id, admin_token, …). */
  createCluster(body: Record<string, unknown>): Promise<Record<string, string>>
  close(): Promise<void>
}

async function json(response: Response, what: string) {
  const text = await response.text()
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`)
  return text ? JSON.parse(text) : {}
}

export interface SiteServerOptions {
  /** Listen there (a restart on the address a browser already has open); default any free port. */
  port?: number
  /** Sees every HTTP request from the first one on, before the services (a test counting streams). */
  watch?: (request: IncomingMessage, response: ServerResponse) => void
}

export async function startSiteServer(config: Partial<RegistryServerConfig> = {}, options: SiteServerOptions = {}): Promise<SiteServer> {
  let now = SITE_START_MS
  const dataDir = await mkdtemp(join(tmpdir(), 'mesh-site-'))
  const server = await buildRegistryServer({
    publicUrl: 'http://127.0.0.1',
    logger: silentLogger,
    clock: () => now,
    pages: {catalogPollMs: 100},
    // Page tests and browsers load many pages from one address.
    limits: {perIpPerMinute: 100_000, registrationsPerIpPerHour: 100_000},
    ...config,
    dataDir,
  })
  const {watch} = options
  const watcher: MeshService[] = watch ? [{name: 'watch', middleware: (ctx, next) => (watch(ctx.req, ctx.res), next()), close: async () => undefined}] : []
  const hosted = await serve({services: [...watcher, ...server.services], logger: silentLogger, port: options.port ?? 0, host: '127.0.0.1'})
  const url = `http://127.0.0.1:${hosted.port}`
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)})
  return {
    url,
    server,
    hosted,
    advance(ms) {
      now += ms
    },
    now: () => now,
    async register(agentId, body = {}) {
      const registered = await json(await post('/v1/agents/register', {agent_id: agentId, ...body}), `register ${agentId}`)
      return {api_key: registered.api_key, token: registered.token}
    },
    async pushCard(token, card) {
      const response = await fetch(`${url}/v1/agents/me`, {
        method: 'PATCH',
        headers: {'content-type': 'application/json', authorization: `Bearer ${token}`},
        body: JSON.stringify({agent_card: card}),
      })
      await json(response, 'push card')
    },
    async createCluster(body) {
      return json(await post('/v1/clusters', {visibility: 'public', ...body}), 'create cluster')
    },
    async close() {
      await hosted.stop()
      await server.close()
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}
