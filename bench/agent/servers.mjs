// The two servers of the skill-call benchmark, doing the same work per call:
// read the JSON body, verify Mesh-Sig with the identity layer's verifyMeshSig
// over the raw bytes, answer JSON. One is an agent served by the kit
// (createAgent + serve(), as `mesh agent serve` runs one); the other is a bare
// Koa handler with mesh's error middleware and nothing else.
import Koa from 'koa'
import {createAgent} from '../../dist/agent/kit/index.js'
import {errorMiddleware} from '../../dist/http/error-middleware.js'
import {serve} from '../../dist/http/host.js'
import {readJsonObject} from '../../dist/http/json-body.js'
import {listen} from '../../dist/http/listen.js'
import {createMemoryNonceStore, verifyMeshSig} from '../../dist/identity/index.js'
import {silentLogger} from '../../dist/lib/log.js'

export const SKILL_PATH = '/v1/echo'
export const BODY = JSON.stringify({text: 'hello from the load generator'})

/**
 * Each server remembers every nonce of the run: the default cap (100,000
 * live nonces) would refuse signed calls once a run sends more than that
 * within the nonce lifetime (240 s).
 */
const nonceStore = () => createMemoryNonceStore({maxEntries: 10_000_000})

/** A PublicCard with one free skill (spec PublicCard, Skill). */
export function benchCard(url = 'http://127.0.0.1') {
  return {
    name: 'Bench Echo',
    url,
    version: '1.0.0',
    description: 'Echoes a short text back; used by bench/agent to measure the kit.',
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    protocols: ['http'],
    pricing: {unit: 'request', amount: 0, currency: 'free'},
    availability: {now: true},
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Use to check an agent answers. Input: text (1–1000 characters). Output: {text, caller}. Latency under 1 ms. Free.',
        examples: ['Echo "hello".', '{"text": "hello"}'],
        inputSchema: {type: 'object', required: ['text'], properties: {text: {type: 'string', minLength: 1, maxLength: 1000}}, additionalProperties: false},
        returns: ['text'],
      },
    ],
  }
}

/** The agent served by the kit on 127.0.0.1, port 0. */
export async function kitServer() {
  const agent = createAgent({
    card: benchCard(),
    skills: {echo: (input, ctx) => ({text: input.text, caller: ctx.caller.pubkey})},
    nonces: nonceStore(),
    logger: silentLogger,
  })
  const host = await serve({services: [agent], logger: silentLogger, port: 0})
  return {url: host.url, close: () => host.stop()}
}

/** The baseline: the same work in one Koa handler. */
export async function bareKoaServer() {
  const nonces = nonceStore()
  const app = new Koa()
  app.silent = true
  app.use(errorMiddleware(silentLogger))
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== SKILL_PATH) {
      ctx.status = 404
      return
    }
    const {raw, value} = await readJsonObject(ctx)
    const signer = await verifyMeshSig({header: ctx.get('mesh-sig'), method: ctx.method, path: ctx.originalUrl, body: raw, nonces})
    ctx.body = {text: value.text, caller: signer.pubkey}
  })
  return listen(app.callback())
}
