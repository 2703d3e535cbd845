// The skill-call load generator, run in a worker thread so it does not share
// the server's event loop. Mesh-Sig nonces are single-use, so every request
// carries its own signature: the worker signs `warmup + requests` headers
// (each with a fresh nonce) before it sends anything, then `concurrency`
// loops send them over keep-alive connections. Warm-up requests are sent
// first and not counted; the measured ones are timed from the first send to
// the last answer. The same generator drives the kit and the bare Koa
// baseline, so the ratio compares servers, not clients.
import http from 'node:http'
import {parentPort, workerData} from 'node:worker_threads'
import {importPrivateKey, signRequest} from '../../dist/identity/index.js'

const {baseUrl, path, body, privateKeyPem, nonceTag, concurrency, warmup, requests, headers: extraHeaders = {}} = workerData
const target = new URL(baseUrl)
const payload = Buffer.from(body)
const key = importPrivateKey(privateKeyPem)

// Signed before the clock starts: signing costs about as much as verifying, and it is the client's work.
const sign = (count, phase) =>
  Array.from({length: count}, (_, i) => signRequest({method: 'POST', path, body: payload, privateKey: key, nonce: `${nonceTag}-${phase}-${i}`}))
const warmupHeaders = sign(warmup, 'w')
const measuredHeaders = sign(requests, 'm')

const agent = new http.Agent({keepAlive: true, maxSockets: concurrency})
const statuses = new Map()
let firstError = null

function call(header) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path,
        agent,
        headers: {'content-type': 'application/json', 'content-length': payload.length, 'mesh-sig': header, ...extraHeaders},
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
          if (response.statusCode !== 200 && firstError === null) firstError = `${response.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`
          resolve()
        })
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}

/** Sends every header once, `concurrency` at a time; returns the per-request latencies (ms). */
async function send(headers) {
  let next = 0
  const latencies = []
  const loop = async () => {
    while (next < headers.length) {
      const header = headers[next++]
      const started = performance.now()
      await call(header)
      latencies.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({length: concurrency}, loop))
  return latencies
}

await send(warmupHeaders)
statuses.clear()
// Tells the main thread the measured requests start, so it can read its own CPU time from here on.
parentPort.postMessage({phase: 'measuring'})
const started = performance.now()
const latencies = await send(measuredHeaders)
const seconds = (performance.now() - started) / 1000
agent.destroy()
latencies.sort((a, b) => a - b)
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
parentPort.postMessage({phase: 'done', requests: latencies.length, seconds, p50: at(0.5), p99: at(0.99), statuses: Object.fromEntries(statuses), firstError})
