/**
 * `GET /metrics` of a registry server built as `mesh serve registry
 * --metrics` builds it: read with a real Prometheus text parser, every
 * metric docs/operating.md lists is there (the PostgreSQL and NATS ones on
 * those backends), counts follow what the test did, route labels stay
 * patterns after 10,000 requests for distinct ids, and the token guards it.
 */
import {readFile, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {serve, type HostedServer} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer, type RegistryServerConfig} from '../../src/registry/compose.js'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {documentedMetrics, parseMetrics, sampleValue} from '../support/prometheus.js'

const TOKEN = 'metrics-test-token'
const OPERATING = await readFile(new URL('../../docs/operating.md', import.meta.url), 'utf8')
const REGISTRY_METRICS = documentedMetrics(OPERATING, '### Registry metrics')
const BACKEND_ONLY = (row: string) => row.includes('`--nats`') || row.includes('`--database-url`')

interface Served {
  server: RegistryServer
  hosted: HostedServer
  url: string
  close(): Promise<void>
}

async function serveWithMetrics(config: Partial<RegistryServerConfig> = {}): Promise<Served> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mesh-metrics-'))
  const server = await buildRegistryServer({
    dataDir,
    publicUrl: 'http://registry.test',
    logger: silentLogger,
    // The cardinality test sends 10,000 requests from one address.
    limits: {perIpPerMinute: 1e6, perIdentityPerMinute: 1e6, registrationsPerIpPerHour: 1e6},
    metrics: {token: TOKEN},
    ...config,
  })
  const hosted = await serve({services: [server.metrics!.service, ...server.services], logger: silentLogger, port: 0, httpMetrics: server.metrics!.http})
  return {
    server,
    hosted,
    url: hosted.url,
    async close() {
      await hosted.stop()
      await server.close()
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}

const scrape = async (url: string) => {
  const response = await fetch(`${url}/metrics`, {headers: {authorization: `Bearer ${TOKEN}`}})
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return parseMetrics(await response.text())
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = async (response: Response): Promise<any> => response.json()

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)})

describe('registry metrics on SQLite', () => {
  let served: Served
  beforeAll(async () => {
    served = await serveWithMetrics()
  })
  afterAll(async () => {
    await served.close()
  })

  it('refuses a scrape without the token, or with another, with the JSON error body', async () => {
    const none = await fetch(`${served.url}/metrics`)
    expect(none.status).toBe(401)
    expect((await body(none)).error.code).toBe('metrics_token_required')
    const wrong = await fetch(`${served.url}/metrics`, {headers: {authorization: 'Bearer nope'}})
    expect(wrong.status).toBe(401)
    expect((await body(wrong)).error.code).toBe('invalid_metrics_token')
  })

  it('lists every documented registry metric and the process metrics, and counts what happened', async () => {
    const registered = await post(`${served.url}/v1/agents/register`, {agent_id: 'metrics-agent'})
    expect(registered.status).toBe(201)
    const {api_key: apiKey} = await body(registered)
    const tokenAnswer = await post(`${served.url}/v1/agents/token`, {agent_id: 'metrics-agent', api_key: apiKey})
    const {token} = await body(tokenAnswer)
    const auth = {authorization: `Bearer ${token}`}
    expect((await post(`${served.url}/v1/search`, {prompt: 'anything'})).status).toBe(200)
    expect((await post(`${served.url}/agents/messages`, {to: 'metrics-agent', payload: {hello: 1}}, auth)).status).toBe(200)
    const read = await fetch(`${served.url}/agents/messages`, {headers: auth})
    expect((await body(read)).messages).toHaveLength(1)
    expect((await fetch(`${served.url}/v1/agents/metrics-agent`)).status).toBe(200)

    const families = await scrape(served.url)
    const expected = REGISTRY_METRICS.filter(({row}) => !BACKEND_ONLY(row)).map(({name}) => name)
    expect(expected.length).toBeGreaterThan(15)
    expect(expected.filter((name) => !families.has(name))).toEqual([])
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) expect(families.has(name)).toBe(true)
    // Only on those backends.
    expect(families.has('mesh_nats_connected')).toBe(false)
    expect(families.has('mesh_pg_pool_connections')).toBe(false)

    expect(sampleValue(families, 'mesh_agents_registered')).toBe(1)
    expect(sampleValue(families, 'mesh_agents_online')).toBe(1)
    expect(sampleValue(families, 'mesh_registry_registrations_total')).toBe(1)
    expect(sampleValue(families, 'mesh_registry_heartbeats_total')).toBe(1)
    expect(sampleValue(families, 'mesh_registry_searches_total')).toBe(1)
    expect(sampleValue(families, 'mesh_messages_accepted_total', {transport: 'http'})).toBe(1)
    // The message, then the read receipt the registry sent its sender (not connected: into its inbox).
    expect(sampleValue(families, 'mesh_messages_queued_total', {route: 'inbox'})).toBe(2)
    expect(sampleValue(families, 'mesh_messages_delivered_total', {via: 'read'})).toBe(1)
    expect(sampleValue(families, 'mesh_relay_sockets')).toBe(0)
    expect(sampleValue(families, 'mesh_http_requests_total', {method: 'GET', route: '/v1/agents/:id', status: '200'})).toBe(1)
    expect(sampleValue(families, 'mesh_http_requests_total', {method: 'POST', route: '/v1/agents/register', status: '201'})).toBe(1)
    expect(sampleValue(families, 'mesh_http_requests_total', {method: 'POST', route: '/v1/search', status: '200'})).toBe(1)
    // The refused scrapes of the test above, under the pattern too.
    expect(sampleValue(families, 'mesh_http_requests_total', {method: 'GET', route: '/metrics', status: '401'})).toBe(2)
    // The parser folds a labelled histogram into one sample (a limit of parse-prometheus-text-format): its
    // type is what is checked here; its label set is the counter's without `status`, by construction.
    expect(families.get('mesh_http_request_duration_seconds')?.type).toBe('HISTOGRAM')
  })

  it('keeps route labels to patterns after 10,000 requests for distinct agent ids', async () => {
    const shapes = [
      (id: string) => fetch(`${served.url}/v1/agents/${id}`),
      (id: string) => fetch(`${served.url}/agents/${id}/identity`),
      (id: string) => fetch(`${served.url}/agent/${id}`, {headers: {accept: 'text/html'}}),
      (id: string) => fetch(`${served.url}/v1/clusters/${id}`),
      (id: string) => fetch(`${served.url}/nowhere/${id}`),
    ]
    const total = 10_000
    let next = 0
    // 32 callers at a time, each request for an id no one asked for before.
    await Promise.all(
      Array.from({length: 32}, async () => {
        while (next < total) {
          const n = next++
          const response = await shapes[n % shapes.length](`ghost-${n}`)
          await response.arrayBuffer()
        }
      }),
    )
    const families = await scrape(served.url)
    const requests = families.get('mesh_http_requests_total')!.metrics
    const counted = requests.reduce((sum, sample) => sum + Number(sample.value), 0)
    expect(counted).toBeGreaterThanOrEqual(total)
    const labelValues = requests.flatMap((sample) => Object.values(sample.labels ?? {}))
    expect(labelValues.filter((value) => value.includes('ghost-'))).toEqual([])
    expect(requests.length).toBeLessThan(40)
    const routes = new Set(requests.map((sample) => sample.labels?.route))
    for (const route of ['/v1/agents/:id', '/agents/:id/identity', 'site:agent', '/v1/clusters/:id', 'unmatched']) expect(routes).toContain(route)
  })
})

describe('registry metrics on PostgreSQL and NATS', () => {
  const schema = uniqueSchema('metrics')
  let served: Served
  beforeAll(async () => {
    served = await serveWithMetrics({databaseUrl: PG_URL, databaseSchema: schema, natsUrl: NATS_URL, natsPrefix: uniqueNatsPrefix()})
  })
  afterAll(async () => {
    await served?.close()
    await dropSchema(schema)
  })

  it('adds the NATS connection and the pool, as documented', async () => {
    const families = await scrape(served.url)
    const backendOnly = REGISTRY_METRICS.filter(({row}) => BACKEND_ONLY(row)).map(({name}) => name)
    expect(backendOnly).toEqual(expect.arrayContaining(['mesh_nats_connected', 'mesh_pg_pool_connections']))
    expect(REGISTRY_METRICS.map(({name}) => name).filter((name) => !families.has(name))).toEqual([])
    expect(sampleValue(families, 'mesh_nats_connected')).toBe(1)
    const idle = sampleValue(families, 'mesh_pg_pool_connections', {state: 'idle'})!
    const busy = sampleValue(families, 'mesh_pg_pool_connections', {state: 'busy'})!
    expect(idle + busy).toBeGreaterThanOrEqual(0)
    expect(Number.isInteger(idle) && Number.isInteger(busy)).toBe(true)
    expect(sampleValue(families, 'mesh_pg_pool_waiting')).toBe(0)
  })
})

