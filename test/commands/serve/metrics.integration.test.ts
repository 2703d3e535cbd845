/**
 * `mesh serve registry --metrics` from the CLI (docs/operating.md, Metrics):
 * off by default; on its own `--metrics-port`, named by the listening
 * event's `metrics_url`; the token from MESH_METRICS_TOKEN.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../support/cli.js'
import {parseMetrics} from '../../support/prometheus.js'

let server: RunningServer | undefined
let root: string | undefined
afterEach(async () => {
  await server?.stop()
  if (root) await rm(root, {recursive: true, force: true})
})

const listening = (running: RunningServer) => JSON.parse(running.lines.find((line) => line.includes('"listening"'))!)

it('serves no /metrics without --metrics', async () => {
  root = await mkdtemp(join(tmpdir(), 'mesh-metrics-cli-'))
  server = await startServer('registry', ['--data', join(root, 'data'), '--json'])
  expect(listening(server).metrics_url).toBeUndefined()
  expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
})

it('serves /metrics on --metrics-port only, behind the token from the environment', async () => {
  root = await mkdtemp(join(tmpdir(), 'mesh-metrics-cli-'))
  server = await startServer('registry', ['--data', join(root, 'data'), '--json', '--metrics', '--metrics-port', '0'], {env: {MESH_METRICS_TOKEN: 'from-env'}})
  const metricsUrl: string = listening(server).metrics_url
  expect(new URL(metricsUrl).port).not.toBe(new URL(server.url).port)
  expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
  expect((await fetch(metricsUrl)).status).toBe(401)
  // A request on the main port is counted; the metrics port's own scrapes are not.
  expect((await fetch(`${server.url}/health/live`)).status).toBe(200)
  const scraped = await fetch(metricsUrl, {headers: {authorization: 'Bearer from-env'}})
  expect(scraped.status).toBe(200)
  const families = parseMetrics(await scraped.text())
  const routes = families.get('mesh_http_requests_total')!.metrics.map((sample) => sample.labels?.route)
  expect(routes).toContain('/health/live')
  expect(routes).not.toContain('/metrics')
})
