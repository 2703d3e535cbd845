// Registry benchmark (run `npm run build` first; reads dist/):
//   node bench/registry/registry.mjs [--agents 10000] [--cards 100000] [--queries 400] [--seconds 6] [--rounds 3] [--concurrency 32] [--only heartbeat|search]
//     [--detail] [--cpu-prof <file.cpuprofile>]
// Profiling options (they change nothing that is measured): --detail prints every
// run's rate and the server thread's CPU per cycle (Linux /proc); --cpu-prof writes
// a V8 CPU profile of the server thread during the registry's last run (open it
// in Chrome DevTools or VS Code).
// (a) heartbeat cycles/s (token call + PATCH me) of the real registry (SQLite
//     in a temp dir, every part wired as `mesh serve registry` wires them)
//     with N registered agents, against a bare Koa JSON endpoint driven by the
//     same load generator in the same run. Bar: ratio ≥ 0.5.
// (b) search latency over M synthetic cards in the in-process index:
//     p50/p95/p99 of a few hundred natural-language prompts, beside a linear
//     scan of the same cards as the baseline. Bar: p99 ≤ 20 ms.
import {randomBytes} from 'node:crypto'
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Worker} from 'node:worker_threads'
import Koa from 'koa'
import {errorMiddleware} from '../../dist/http/error-middleware.js'
import {serve} from '../../dist/http/host.js'
import {readJsonObject} from '../../dist/http/json-body.js'
import {listen} from '../../dist/http/listen.js'
import {silentLogger} from '../../dist/lib/log.js'
import {buildRegistryServer} from '../../dist/registry/compose.js'
import {AgentSearchIndex} from '../../dist/registry/search/agent-index.js'
import {tokenize} from '../../dist/registry/search/tokenizer.js'
import {hashApiKey} from '../../dist/registry/service.js'
import {prng, syntheticCard, syntheticPrompts} from './vocabulary.mjs'
import {option} from '../options.mjs'
import {startCpuProfile} from '../profile.mjs'

const AGENTS = Number(option('agents', 10_000))
const CARDS = Number(option('cards', 100_000))
const QUERIES = Number(option('queries', 400))
const SECONDS = Number(option('seconds', 6))
const ROUNDS = Math.max(1, Number(option('rounds', 3)))
const CONCURRENCY = Number(option('concurrency', 32))
const ONLY = option('only', 'all')
const DETAIL = process.argv.includes('--detail')
const CPU_PROFILE = option('cpu-prof', undefined)

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
const ms = (value) => `${value.toFixed(2)} ms`

/** CPU time (µs) of every thread of this process, by thread id, with its name (Linux /proc; empty elsewhere). */
function threadCpuUs() {
  const threads = new Map()
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      threads.set(tid, {name: tid === String(process.pid) ? 'main' : name, us: ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100})  // utime + stime, in clock ticks of 10 ms
    }
  } catch {}
  return threads
}

function drive(baseUrl, agents, warmupCycles) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load.mjs', import.meta.url), {
      workerData: {baseUrl, agents, concurrency: CONCURRENCY, warmupMs: 1_000, warmupCycles, durationMs: SECONDS * 1_000},
    })
    const threadsBefore = threadCpuUs()
    const processBefore = process.cpuUsage()
    const startedAt = performance.now()
    worker.once('message', (result) => {
      const threadsAfter = threadCpuUs()
      const processCpu = process.cpuUsage(processBefore)
      // Warm-up included on both sides of the division: CPU per cycle over every cycle of the run.
      const wallSeconds = (performance.now() - startedAt) / 1000
      const cyclesOverRun = result.allCycles
      // Per thread name (worker threads and libuv's pool share names, so they are summed).
      const byName = new Map()
      for (const [tid, after] of threadsAfter) {
        const spent = after.us - (threadsBefore.get(tid)?.us ?? 0)
        byName.set(after.name, (byName.get(after.name) ?? 0) + spent / cyclesOverRun)
      }
      resolve({
        ...result,
        threadsUsPerCycle: byName,
        generatorUsPerCycle: result.generatorCpuUs === null ? null : result.generatorCpuUs / cyclesOverRun,
        // The server runs on this process's main thread; null off Linux.
        cpuUsPerCycle: byName.has('main') ? byName.get('main') : null,
        processCpuUsPerCycle: (processCpu.user + processCpu.system) / cyclesOverRun,
        cores: (processCpu.user + processCpu.system) / 1e6 / wallSeconds,
      })
    })
    worker.once('error', reject)
  })
}

/** The baseline: the same two routes, answering JSON after reading a JSON body, and nothing else. */
async function bareKoa() {
  const app = new Koa()
  app.silent = true
  app.use(errorMiddleware(silentLogger))
  app.use(async (ctx) => {
    const {value} = await readJsonObject(ctx)
    if (ctx.method === 'POST' && ctx.path === '/v1/agents/token') ctx.body = {token: 'bench-token', agent_id: value.agent_id}
    else if (ctx.method === 'PATCH' && ctx.path === '/v1/agents/me') ctx.body = {ok: true}
    else ctx.status = 404
  })
  return listen(app.callback())
}

async function heartbeatBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mesh-bench-registry-'))
  const unlimited = {perIpPerMinute: 1e9, perIdentityPerMinute: 1e9, registrationsPerIpPerHour: 1e9}
  const built = await buildRegistryServer({dataDir, publicUrl: 'http://127.0.0.1', logger: silentLogger, limits: unlimited, relay: false})
  const store = built.registry.context.store
  const random = prng(7)
  const agents = []
  const started = performance.now()
  // Every agent registered, online and carrying its card before the server (and its search index) starts;
  // round 1's warm-up pass then stores each card in its pushed form, and the measured heartbeats repeat it.
  for (let i = 0; i < AGENTS; i++) {
    const id = `bench-agent-${String(i).padStart(6, '0')}`
    const key = randomBytes(16).toString('hex')
    const card = syntheticCard(random, i)
    await store.createAgent({agentId: id, apiKeyHash: hashApiKey(key), pubkey: null, endpoint: null, capabilities: card.tags, createdAtMs: Date.now()})
    await store.updateAgent(id, {agentCard: card, displayName: card.name, description: card.description})
    await store.touchAgent(id, Date.now())
    agents.push({id, key, card})
  }
  const host = await serve({services: built.services, logger: silentLogger, port: 0})
  try {
    console.log(`(a) heartbeat: ${AGENTS} agents registered with cards in ${((performance.now() - started) / 1000).toFixed(1)} s (SQLite in a temp dir); ${CONCURRENCY} keep-alive connections, ${ROUNDS} × ${SECONDS} s per side, alternated`)
    const bare = await bareKoa()
    const runs = {registry: [], bare: []}
    // Alternate, so neither side gets the warmer machine.
    for (let round = 1; round <= ROUNDS; round++) {
      // Round 1 warms up with a full pass: every agent heartbeats once before counting starts, so the stored
      // card is the pushed one (owner_class hoisted) and the measured pushes repeat it, as in a running registry.
      const warmupCycles = round === 1 ? agents.length : 0
      runs.bare.push(await drive(bare.url, agents, warmupCycles))
      const stopProfile = CPU_PROFILE && round === ROUNDS ? await startCpuProfile(CPU_PROFILE, "the registry's last run") : async () => {}
      runs.registry.push(await drive(host.url, agents, warmupCycles))
      await stopProfile()
      if (DETAIL) {
        for (const side of ['bare', 'registry']) {
          const run = runs[side][runs[side].length - 1]
          const server = run.cpuUsPerCycle === null ? '' : `server thread ${run.cpuUsPerCycle.toFixed(0)} µs, `
          const cpu = `; CPU per cycle: ${server}whole process ${run.processCpuUsPerCycle.toFixed(0)} µs (load generator included); ${run.cores.toFixed(2)} cores busy`
          console.log(`    round ${round} ${side.padEnd(8)} ${(run.cycles / run.seconds).toFixed(0).padStart(7)} cycles/s${cpu}`)
          const threads = [...run.threadsUsPerCycle].filter(([, us]) => us >= 1).sort((a, b) => b[1] - a[1])
          const generator = run.generatorUsPerCycle === null ? '' : ` (load generator ${run.generatorUsPerCycle.toFixed(0)})`
          console.log(`      by thread (µs per cycle): ${threads.map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}${generator}`)
        }
      }
    }
    await bare.close()
    const rate = (list) => list.reduce((sum, r) => sum + r.cycles, 0) / list.reduce((sum, r) => sum + r.seconds, 0)
    const registryRate = rate(runs.registry)
    const bareRate = rate(runs.bare)
    const last = (list) => list[list.length - 1]
    console.log(`    registry  ${registryRate.toFixed(0).padStart(7)} cycles/s   (cycle p50 ${ms(last(runs.registry).p50)}, p99 ${ms(last(runs.registry).p99)})`)
    console.log(`    bare Koa  ${bareRate.toFixed(0).padStart(7)} cycles/s   (cycle p50 ${ms(last(runs.bare).p50)}, p99 ${ms(last(runs.bare).p99)})`)
    const ratio = registryRate / bareRate
    console.log(`    ratio registry / bare = ${ratio.toFixed(2)}  (bar ≥ 0.5: ${ratio >= 0.5 ? 'PASS' : 'FAIL'})`)
  } finally {
    await host.stop()
    await built.close()
    rmSync(dataDir, {recursive: true, force: true})
  }
}

async function searchBench() {
  const random = prng(42)
  const now = Date.now()
  const index = new AgentSearchIndex()
  const texts = []
  let started = performance.now()
  for (let i = 0; i < CARDS; i++) {
    const card = syntheticCard(random, i)
    const operational = random() < 0.8 ? true : random() < 0.5 ? false : null
    index.upsert({
      agentId: `agent-${i}`, apiKeyHash: '', pubkey: null, endpoint: `https://agent-${i}.example.com`, capabilities: card.tags, agentCard: card,
      description: null, displayName: card.name, ownerClass: 'third-party', brand: null, createdAtMs: now, lastSeenMs: now,
      probe: {probed_at: new Date(now).toISOString(), card: null, operational, card_match: null, skills: []},
    }, now)
    texts.push(`${card.name} ${card.category} ${card.tags.join(' ')} ${card.description}`.toLowerCase())
  }
  const buildSeconds = (performance.now() - started) / 1000
  const memoryMb = process.memoryUsage().heapUsed / 1024 / 1024
  console.log(`(b) search: ${CARDS} cards indexed in ${buildSeconds.toFixed(1)} s (heap ${memoryMb.toFixed(0)} MB), ${QUERIES} prompts`)
  const prompts = syntheticPrompts(prng(9), QUERIES + 50)
  const filters = (i) => ({operationalOnly: i % 5 === 0, accepts: i % 7 === 0 ? ['application/json'] : [], produces: [], limit: 10})
  for (let i = 0; i < 50; i++) index.query(prompts[i], filters(i)) // warm-up
  const latencies = []
  let results = 0
  for (let i = 50; i < prompts.length; i++) {
    started = performance.now()
    results += index.query(prompts[i], filters(i)).length
    latencies.push(performance.now() - started)
  }
  latencies.sort((a, b) => a - b)
  // Baseline: a linear scan counting prompt words in each card, the obvious index-free search.
  const scan = []
  for (let i = 50; i < 80; i++) {
    started = performance.now()
    const words = tokenize(prompts[i]).map((w) => w.slice(0, 5))
    let best = 0
    for (const text of texts) {
      let hits = 0
      for (const word of words) if (text.includes(word)) hits++
      if (hits > best) best = hits
    }
    scan.push(performance.now() - started)
  }
  scan.sort((a, b) => a - b)
  const p99 = percentile(latencies, 0.99)
  console.log(`    index     p50 ${ms(percentile(latencies, 0.5))}  p95 ${ms(percentile(latencies, 0.95))}  p99 ${ms(p99)}  max ${ms(latencies[latencies.length - 1])}  (${(results / QUERIES).toFixed(1)} results/query)`)
  console.log(`    scan      p50 ${ms(percentile(scan, 0.5))}  (linear scan of the same cards, 30 prompts)`)
  console.log(`    ratio scan p50 / index p50 = ${(percentile(scan, 0.5) / percentile(latencies, 0.5)).toFixed(0)}×;  p99 ≤ 20 ms: ${p99 <= 20 ? 'PASS' : 'FAIL'}`)
}

if (ONLY === 'all' || ONLY === 'search') await searchBench()
if (ONLY === 'all' || ONLY === 'heartbeat') await heartbeatBench()
