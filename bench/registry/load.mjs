// The heartbeat load generator, run in a worker thread so it does not share
// the server's event loop: `concurrency` loops over keep-alive connections,
// each cycle = POST /v1/agents/token then PATCH /v1/agents/me with the JWT
// (spec "Heartbeat procedure"), over the agents in turn. The same generator drives the bare Koa
// baseline, so the ratio compares servers, not clients.
import {readFileSync} from 'node:fs'
import http from 'node:http'
import {parentPort, workerData} from 'node:worker_threads'

const {baseUrl, agents, concurrency, warmupMs, warmupCycles, durationMs} = workerData
const target = new URL(baseUrl)
const agent = new http.Agent({keepAlive: true, maxSockets: concurrency})

function call(method, path, body, headers = {}) {
  const payload = Buffer.from(JSON.stringify(body))
  return new Promise((resolve, reject) => {
    const request = http.request(
      {host: target.hostname, port: target.port, method, path, agent, headers: {'content-type': 'application/json', 'content-length': payload.length, ...headers}},
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          if (response.statusCode >= 300) return reject(new Error(`${method} ${path} → ${response.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`))
          resolve(JSON.parse(Buffer.concat(chunks).toString()))
        })
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}

async function cycle(entry) {
  const {token} = await call('POST', '/v1/agents/token', {agent_id: entry.id, api_key: entry.key})
  await call('PATCH', '/v1/agents/me', {description: entry.card.description, capabilities: entry.card.tags, agent_card: entry.card}, {authorization: `Bearer ${token}`})
}

/** CPU time (µs) of this thread (Linux /proc), or null elsewhere: lets --detail tell the generator's share apart. */
function threadCpuUs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
  } catch {
    return null
  }
}

let next = 0
let counted = 0
let completed = 0
let counting = false
let stop = false
const latencies = []

async function loop() {
  while (!stop) {
    const entry = agents[next++ % agents.length]
    const started = performance.now()
    await cycle(entry)
    completed++
    if (counting) {
      counted++
      latencies.push(performance.now() - started)
    }
  }
}

const cpuAtStart = threadCpuUs()
const loops = Array.from({length: concurrency}, loop)
// Warm-up: at least warmupMs, and at least warmupCycles cycles (a full pass makes every agent's card the stored one).
await new Promise((resolve) => setTimeout(resolve, warmupMs))
while (next < warmupCycles) await new Promise((resolve) => setTimeout(resolve, 50))
counting = true
const started = performance.now()
await new Promise((resolve) => setTimeout(resolve, durationMs))
counting = false
const elapsed = performance.now() - started
stop = true
await Promise.all(loops)
agent.destroy()
latencies.sort((a, b) => a - b)
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
const cpuAtEnd = threadCpuUs()
parentPort.postMessage({cycles: counted, allCycles: completed, seconds: elapsed / 1000, p50: at(0.5), p99: at(0.99), generatorCpuUs: cpuAtStart === null ? null : cpuAtEnd - cpuAtStart})
