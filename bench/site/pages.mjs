// Site pages benchmark (run `npm run build` first; reads dist/):
//   node bench/site/pages.mjs [--agents 5000] [--clusters 500] [--requests 50] [--warmup 10] [--cards 500]
// Builds `mesh serve registry` in-process (SQLite in a temp dir, every part
// wired as the command wires them, limits raised for the seeding), fills it
// over its own HTTP routes with N agents (brands, categories, 70 % online,
// `--cards` of them with a cached PublicCard as the prober saves it) and M
// public clusters (each with a `where`, a board and a post; the measured
// one with three boards of five posts), then measures each page's first
// paint server time: a browser's GET (Accept: text/html) to the complete
// HTML body on loopback, one request at a time, pages interleaved round by
// round so drift hits all alike. Baseline in the same run: GET /health.
// Bar (issue 12): every page's p95 under 300 ms with 5,000 agents and 500
// public clusters. A page route that is not there yet prints "missing".
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {serve} from '../../dist/http/host.js'
import {silentLogger} from '../../dist/lib/log.js'
import {buildRegistryServer} from '../../dist/registry/compose.js'
import {prng, syntheticCard} from '../registry/vocabulary.mjs'
import {option} from '../options.mjs'

const AGENTS = Number(option('agents', 5_000))
const CLUSTERS = Number(option('clusters', 500))
const REQUESTS = Number(option('requests', 50))
const WARMUP = Number(option('warmup', 10))
const CARDS = Math.min(AGENTS, Number(option('cards', 500)))
const BAR_MS = 300
const ONLINE_WINDOW_MS = 5 * 60_000
const SEED_CONCURRENCY = 16
const BRANDS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'wonka', 'tyrell', 'cyberdyne', 'soylent', 'vandelay']
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
const log = (line) => process.stdout.write(`${line}\n`)

// The registry's clock: real time plus an offset the seeding moves (the boards part allows 60 posts a minute per address).
let offsetMs = 0
const clock = () => Date.now() + offsetMs

const dataDir = mkdtempSync(join(tmpdir(), 'mesh-bench-site-'))
const server = await buildRegistryServer({
  dataDir,
  publicUrl: 'http://127.0.0.1',
  logger: silentLogger,
  clock,
  limits: {perIpPerMinute: 10_000_000, perIdentityPerMinute: 10_000_000, registrationsPerIpPerHour: 10_000_000},
  relayLimits: {creationsPerIp: 10_000_000},
})
const hosted = await serve({services: server.services, logger: silentLogger, port: 0, host: '127.0.0.1'})
const base = `http://127.0.0.1:${hosted.port}`

async function call(method, path, body, headers = {}) {
  const response = await fetch(base + path, {method, headers: {'content-type': 'application/json', ...headers}, body: body === undefined ? undefined : JSON.stringify(body)})
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : {}
}

/** Runs `task(i)` for i in [from, to) with a few at a time. */
async function pool(from, to, task) {
  let next = from
  await Promise.all(Array.from({length: SEED_CONCURRENCY}, async () => {
    while (next < to) await task(next++)
  }))
}

// --- Seeding -------------------------------------------------------------
const seedStarted = performance.now()
const random = prng(12)
let posts = 0
/** One post; every 50 the clock moves a minute on, past the boards part's per-address window. */
async function post(clusterId, board, i) {
  if (++posts % 50 === 0) offsetMs += 61_000
  await call('POST', `/v1/clusters/${clusterId}/boards/${board}/posts?agent=bench`, {
    title: `Report ${i} from ${board}`,
    body: `Seen on ${new Date(clock()).toISOString().slice(0, 10)}: ${'a calm sea and a few boats. '.repeat(4)}`,
    ttl: '30d',
    props: {where: {lat: Math.round((random() * 140 - 70) * 100) / 100, lon: Math.round((random() * 340 - 170) * 100) / 100, label: `spot ${i}`}},
  })
}
const clusterIds = []
for (let i = 0; i < CLUSTERS; i++) {
  // Sequential: a post's clock step must not race another's.
  const created = await call('POST', '/v1/clusters', {
    name: `Cluster ${i} ${['harbour', 'alpine', 'reef', 'desert', 'forest', 'city'][i % 6]}`,
    visibility: 'public',
    topic: `#topic-${i % 40}`,
    description: `Public cluster number ${i}: reports and chatter about what its members see.`,
    persist: true,
    props: {where: {lat: Math.round((random() * 140 - 70) * 100) / 100, lon: Math.round((random() * 340 - 170) * 100) / 100, label: `place ${i}`}},
  })
  clusterIds.push(created.cluster_id)
  const admin = {'x-cluster-token': created.admin_token}
  const boards = i === 0 ? ['sightings', 'weather', 'trades'] : ['sightings']
  for (const slug of boards) {
    await call('POST', `/v1/clusters/${created.cluster_id}/boards`, {slug, title: `${slug[0].toUpperCase()}${slug.slice(1)}`, charter: 'Short reports.'}, admin)
    for (let p = 0; p < (i === 0 ? 5 : 1); p++) await post(created.cluster_id, slug, p)
  }
}
const clustersSeeded = performance.now()

const cardOf = (i) => ({...syntheticCard(random, i), brand: BRANDS[i % BRANDS.length], endpoint: `https://agent-${i}.example/`})
const cards = Array.from({length: AGENTS}, (_, i) => cardOf(i))
async function seedAgent(i) {
  const {api_key: apiKey} = await call('POST', '/v1/agents/register', {agent_id: `agent-${i}`})
  // The token call is the heartbeat that brings an agent online; the card push follows, as an agent's heartbeat loop does.
  const {token} = await call('POST', '/v1/agents/token', {agent_id: `agent-${i}`, api_key: apiKey})
  await call('PATCH', '/v1/agents/me', {agent_card: cards[i]}, {authorization: `Bearer ${token}`})
}
// 30 % go offline: seeded first, then the clock moves past the online window and the sweep dims them.
const offline = Math.floor(AGENTS * 0.3)
await pool(0, offline, seedAgent)
offsetMs += ONLINE_WINDOW_MS + 1
await server.registry.sweep()
await pool(offline, AGENTS, seedAgent)
// Cached PublicCards, as the prober saves them, for the first online agents.
const store = server.registry.context.store
for (let i = offline; i < offline + CARDS && i < AGENTS; i++) {
  const at = new Date(clock()).toISOString()
  const card = cards[i]
  await store.saveProbe(`agent-${i}`, {
    probed_at: at,
    card_fetched_at: at,
    card_error: null,
    operational: true,
    card_match: '2/2',
    live_check: null,
    card: {
      name: card.name,
      url: card.endpoint,
      version: '1.0.0',
      description: card.description,
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      protocols: ['http'],
      pricing: card.pricing,
      availability: {now: true},
      skills: ['run', 'describe'].map((id) => ({
        id,
        name: `${id} ${card.tags[0]}`,
        description: `${id[0].toUpperCase()}${id.slice(1)}s the ${card.tags[1] ?? 'input'} it is given.`,
        examples: [`{"text": "${card.tags[0]} this"}`],
        inputSchema: {type: 'object', required: ['text'], properties: {text: {type: 'string', maxLength: 2000}}},
        returns: ['text'],
      })),
    },
  })
}
const seeded = performance.now()
log(`seeded ${AGENTS} agents (${AGENTS - offline} online, ${CARDS} with a cached PublicCard) in ${((seeded - clustersSeeded) / 1000).toFixed(1)} s; ${CLUSTERS} public clusters with ${posts} posts in ${((clustersSeeded - seedStarted) / 1000).toFixed(1)} s`)

// --- Measuring -----------------------------------------------------------
// A search word of the vocabulary, and online agents with a card to open.
const word = cards[offline].tags[0]
const agentIds = Array.from({length: 10}, (_, k) => `agent-${offline + k}`)
const PAGES = [
  {name: 'GET /health (baseline)', path: () => '/health', accept: 'application/json', baseline: true},
  {name: '/agent/<id>', path: (r) => `/agent/${agentIds[r % agentIds.length]}`},
  {name: '/network', path: () => '/network'},
  {name: `/network?q=${word}`, path: () => `/network?q=${encodeURIComponent(word)}`},
  {name: '/clusters', path: () => '/clusters'},
  {name: '/clusters/<id>', path: () => `/clusters/${clusterIds[0]}`},
  {name: '/resources', path: () => '/resources'},
  // Not a page: the JSON the network graph draws after first paint (reported, no bar).
  {name: '/network/graph.json (after paint)', path: () => '/network/graph.json', accept: 'application/json', json: true},
]

async function timed(page, round) {
  const started = performance.now()
  const response = await fetch(base + page.path(round), {headers: {accept: page.accept ?? HTML}})
  const body = await response.arrayBuffer()
  // fetch decodes a compressed body: the wire size is its Content-Length then.
  const wire = response.headers.get('content-encoding') ? Number(response.headers.get('content-length') ?? Number.NaN) : body.byteLength
  return {ms: performance.now() - started, status: response.status, type: response.headers.get('content-type') ?? '', bytes: body.byteLength, wire}
}

const results = new Map(PAGES.map((page) => [page, {times: [], status: 0, type: '', bytes: 0, wire: 0}]))
for (let round = 0; round < WARMUP + REQUESTS; round++) {
  for (const page of PAGES) {
    const answer = await timed(page, round)
    const result = results.get(page)
    Object.assign(result, {status: answer.status, type: answer.type, bytes: Math.max(result.bytes, answer.bytes), wire: Math.max(result.wire, answer.wire)})
    if (round >= WARMUP) result.times.push(answer.ms)
  }
}

const baseline = results.get(PAGES[0])
const baselineMedian = percentile([...baseline.times].sort((a, b) => a - b), 0.5)
log('')
log(`first paint server time, ${REQUESTS} requests per page after ${WARMUP} warm-up (loopback, one at a time; bar: p95 < ${BAR_MS} ms)`)
log(`${'page'.padEnd(34)} ${'status'.padStart(6)} ${'KB'.padStart(7)} ${'wire KB'.padStart(8)} ${'median'.padStart(10)} ${'p95'.padStart(10)} ${'×health'.padStart(8)}  bar`)
let missed = 0
let missing = 0
for (const page of PAGES) {
  const r = results.get(page)
  const sorted = [...r.times].sort((a, b) => a - b)
  const median = percentile(sorted, 0.5)
  const p95 = percentile(sorted, 0.95)
  const isPage = r.status === 200 && r.type.startsWith(page.json ? 'application/json' : 'text/html')
  let verdict
  if (page.baseline) verdict = 'baseline'
  else if (page.json) verdict = isPage ? 'info (no bar)' : `not served (${r.status})`
  else if (!isPage) {
    verdict = `missing (${r.status} ${r.type.split(';')[0] || 'no type'})`
    missing++
  } else if (r.bytes >= 200 * 1024) {
    verdict = 'MISS (over 200 KB)'
    missed++
  } else if (p95 < BAR_MS) verdict = 'ok'
  else {
    verdict = 'MISS'
    missed++
  }
  log(`${page.name.padEnd(34)} ${String(r.status).padStart(6)} ${(r.bytes / 1024).toFixed(1).padStart(7)} ${(r.wire / 1024).toFixed(1).padStart(8)} ${`${median.toFixed(2)} ms`.padStart(10)} ${`${p95.toFixed(2)} ms`.padStart(10)} ${(median / baselineMedian).toFixed(1).padStart(8)}  ${verdict}`)
}
log('')
log(missed ? `${missed} page(s) over the bar: MISS` : missing ? `${missing} page route(s) missing; every page served is under the bar` : `every page under ${BAR_MS} ms (p95)`)

await hosted.stop()
await server.close()
rmSync(dataDir, {recursive: true, force: true})
process.exitCode = missed || missing ? 1 : 0
