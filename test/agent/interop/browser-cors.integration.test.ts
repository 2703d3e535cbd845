/**
 * A browser page on another origin calls an agent served by the kit (issue 11,
 * interop): headless Chromium signs Mesh-Sig with WebCrypto Ed25519 (v2,
 * naming the agent's origin — issue 18 — and v1 where a call checks what v1
 * may no longer do: spend prepaid credit), so
 * every call is preflighted; the agent must answer the preflight (spec Agent
 * side CORS; DECISIONS CORS for agents) and expose a 402's X-Payment-*
 * headers to the page's script. The page pays from those headers through a
 * wallet on its own origin (a transfer with the nonce as memo on a local
 * Solana JSON-RPC node) and retries with X-Payment-Proof; the agent's gate is
 * the real one (createPayments, no free allowance). What the page saw is
 * asserted, and so is what went over the agent's wire (the preflights and
 * their answers).
 */
import {readFile} from 'node:fs/promises'
import {createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments, type Payments} from '../../../src/agent/payments/index.js'
import type {HostedServer} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {echoSkill, lamportsPricing, publicCard} from '../../support/agent-card.js'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {serveAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

const PAGE = new URL('./fixtures/cross-origin-page.html', import.meta.url)
const WALLET = randomAddress()
const PAYER = randomAddress()
/** The page's prepaid payer address, bound to its key by a topup and a first deposit carrying its memo. */
const DEPOSITOR = randomAddress()
const PRICE_LAMPORTS = 5000

const card = publicCard({
  name: 'Browser Interop',
  description: 'Echoes text for free and renders a picture for a fee; called from a browser page in tests.',
  protocols: ['http', 'x402'],
  skills: [
    echoSkill({description: 'Use to check the agent answers. Input: text (1–200 characters). Output: {text, caller}. Instant. Free.'}),
    {
      id: 'render',
      name: 'Render',
      description: 'Use to draw a picture from a prompt. Input: prompt (1–500 characters). Output: {image_url, paid_via}. About a second. 5000 lamports a call.',
      examples: ['Draw a lighthouse at dusk.', '{"prompt": "a lighthouse at dusk"}'],
      inputSchema: {type: 'object', required: ['prompt'], properties: {prompt: {type: 'string', minLength: 1, maxLength: 500}}},
      returns: ['image_url'],
      pricing: lamportsPricing(PRICE_LAMPORTS),
    },
  ],
})

/** One request the agent's HTTP server took and what it answered. */
interface WireExchange {
  method: string
  url: string
  request: IncomingHttpHeaders
  status: number
  response: OutgoingHttpHeaders
}

interface PageCall {
  name: string
  method: string
  path: string
  status?: number
  type?: string
  payment?: Record<string, string | null>
  body?: any
  error?: string
}

interface PageResults {
  pubkey: string
  origin: string
  calls: PageCall[]
  /** The transaction signature the page's wallet answered. */
  proof?: string
  /** Credits the deposit scan added after the page's topup. */
  credited?: number
  error?: string
}

let chain: SolanaRpcServer
let gate: Payments
let agent: HostedServer
let pageServer: Server
let pageOrigin: string
let browser: TestBrowser
const wire: WireExchange[] = []
/** What the page asked its wallet to pay. */
const payments: Array<Record<string, string>> = []
let results: PageResults
let screenshot: string

beforeAll(async () => {
  chain = await startSolanaRpc()
  gate = createPayments({wallet: WALLET, rpcUrl: chain.url, network: 'solana-devnet', freePerDay: 0, card, rpcTimeoutMs: 5_000})
  agent = await serveAgent({
    card,
    payments: gate,
    logger: silentLogger,
    skills: {
      echo: (input: {text: string}, ctx: SkillContext) => ({text: input.text, caller: ctx.caller.pubkey}),
      render: (input: {prompt: string}, ctx: SkillContext) => ({image_url: `https://img.example/${encodeURIComponent(input.prompt)}.png`, paid_via: ctx.payment?.via ?? null}),
    },
  })
  // Taps the agent's server before Koa sees the request: what really crossed the wire, preflights included.
  agent.server.prependListener('request', (request, response) => {
    response.on('finish', () => {
      wire.push({method: request.method ?? '', url: request.url ?? '', request: request.headers, status: response.statusCode, response: response.getHeaders()})
    })
  })

  // The page's origin (the same host on another port is another origin) and its wallet.
  const html = await readFile(PAGE)
  pageServer = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url?.startsWith('/page')) {
      response.writeHead(200, {'content-type': 'text/html; charset=utf-8'}).end(html)
    } else if (request.method === 'POST' && request.url === '/wallet/pay') {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const order = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>
      payments.push(order)
      const signature = chain.addTransaction({payer: PAYER, to: order.to, lamports: BigInt(order.lamports), memo: order.memo})
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({signature}))
    } else if (request.method === 'POST' && request.url === '/wallet/deposit') {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const order = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, string>
      chain.addTransaction({payer: order.from, to: order.to, lamports: BigInt(order.lamports), memo: order.memo})
      // The agent's periodic deposit scan, run now rather than waited for.
      const {credited} = await gate.scanDeposits()
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({credited}))
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`
  expect(pageOrigin).not.toBe(new URL(agent.url).origin)

  browser = await launchBrowser()
  const page = await browser.newPage()
  await page.goto(`${pageOrigin}/page?agent=${encodeURIComponent(agent.url)}&payer=${DEPOSITOR}`)
  await page.waitForFunction('window.meshResults !== undefined', undefined, {timeout: 20_000})
  results = (await page.evaluate('window.meshResults')) as PageResults
  screenshot = await browser.screenshot(page, 'agent-browser-cors')
})

afterAll(async () => {
  await browser?.close()
  await agent?.stop()
  await new Promise((resolve) => pageServer?.close(resolve))
  await chain?.close()
})

const callNamed = (name: string) => {
  const call = results.calls.find((c) => c.name === name)
  if (!call) throw new Error(`the page made no "${name}" call: ${JSON.stringify(results)}; console: ${browser.console.join(' | ')}`)
  return call
}
const split = (value: unknown) => String(value ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean)
const preflightsTo = (path: string) => wire.filter((exchange) => exchange.method === 'OPTIONS' && exchange.url === path)
const noPaymentHeaders = {'X-Payment-Network': null, 'X-Payment-Address': null, 'X-Payment-Amount': null, 'X-Payment-Nonce': null}

describe('a page on another origin calls the agent from headless Chromium', () => {
  it('ran every call without a network or script error', () => {
    expect(results.error, browser.console.join('\n')).toBeUndefined()
    expect(results.calls.map((c) => [c.name, c.error])).toEqual([
      ['free', undefined],
      ['invalid', undefined],
      ['challenge', undefined],
      ['paid', undefined],
      ['replayed', undefined],
      ['topup', undefined],
      ['credit-v1', undefined],
      ['credit', undefined],
      ['whoami', undefined],
      ['whoami-v1', undefined],
    ])
    expect(results.calls.every((c) => c.type === 'cors')).toBe(true)
    // Chromium logs each non-2xx answer ("Failed to load resource"); a CORS refusal or a script error is what must not appear.
    expect(browser.console.filter((line) => /CORS|Access-Control|^pageerror/i.test(line))).toEqual([])
    expect(screenshot).toMatch(/agent-browser-cors\.png$/)
  })

  it('calls a free skill signed in the page: the agent verified the browser\'s key', () => {
    const free = callNamed('free')
    expect(free.status).toBe(200)
    expect(free.body).toEqual({text: 'hello from a browser', caller: results.pubkey})
    expect(free.payment).toEqual(noPaymentHeaders)
  })

  it('reads an error body across origins (errors carry CORS too)', () => {
    const invalid = callNamed('invalid')
    expect(invalid.status).toBe(400)
    expect(invalid.body.error).toMatchObject({code: 'invalid_input'})
  })

  it('reads the 402 challenge: the four X-Payment-* headers are exposed to the script, and the body', () => {
    const challenge = callNamed('challenge')
    expect(challenge.status).toBe(402)
    const nonce = challenge.payment?.['X-Payment-Nonce']
    expect(nonce).toMatch(/^[0-9a-f]{16,}$/)
    expect(challenge.payment).toEqual({
      'X-Payment-Network': 'solana-devnet',
      'X-Payment-Address': WALLET,
      'X-Payment-Amount': String(PRICE_LAMPORTS),
      'X-Payment-Nonce': nonce,
    })
    expect(challenge.body).toMatchObject({
      x402Version: 1,
      accepts: [{scheme: 'exact', network: 'solana-devnet', resource: '/v1/render', payTo: WALLET, asset: 'SOL', lamports: '5000', nonce}],
    })
    expect(challenge.body.accepts[0].chainPayUrl).toBe(`solana:${WALLET}?amount=0.000005&memo=${nonce}&label=Browser%20Interop`)
  })

  it('pays from the exposed headers alone and is served when it retries with X-Payment-Proof', () => {
    const challenge = callNamed('challenge')
    // Everything the wallet was told came from the headers the script could read.
    expect(payments).toEqual([{network: 'solana-devnet', to: WALLET, lamports: '5000', memo: challenge.payment?.['X-Payment-Nonce']}])
    const paid = callNamed('paid')
    expect(paid.status).toBe(200)
    expect(paid.body).toEqual({image_url: 'https://img.example/a%20lighthouse%20at%20dusk.png', paid_via: 'proof'})
    // The gate checked the proof on the chain node.
    expect(chain.callsOf('getTransaction').map((call) => call.params[0])).toContain(results.proof)
  })

  it('cannot spend the same proof on another call: a fresh 402 the page can read', () => {
    const replayed = callNamed('replayed')
    expect(replayed.status).toBe(402)
    expect(replayed.payment?.['X-Payment-Nonce']).toMatch(/^[0-9a-f]{16,}$/)
    expect(replayed.payment?.['X-Payment-Nonce']).not.toBe(callNamed('challenge').payment?.['X-Payment-Nonce'])
    expect(replayed.body.accepts[0]).toMatchObject({resource: '/v1/render', lamports: '5000'})
  })

  it('prepays with a signed topup; a v1-signed call does not spend the credit (402), a v2 one signed for this agent does (issue 18)', () => {
    const topup = callNamed('topup')
    expect(topup.status).toBe(200)
    expect(topup.body).toMatchObject({payer_address: DEPOSITOR, pay_to: WALLET, lamports_per_credit: String(PRICE_LAMPORTS), bound: false})
    expect(results.credited).toBe(1)
    const v1 = callNamed('credit-v1')
    expect(v1.status).toBe(402)
    expect(v1.payment?.['X-Payment-Nonce']).toMatch(/^[0-9a-f]{16,}$/)
    const credit = callNamed('credit')
    expect(credit.status).toBe(200)
    expect(credit.body).toEqual({image_url: 'https://img.example/on%20credit.png', paid_via: 'credit'})
    expect(gate.credits(results.pubkey)).toBe(0)
  })

  it('asks whoami, the reference verifier, with a signed GET: v2 names this agent, v1 names none', () => {
    const whoami = callNamed('whoami')
    expect(whoami.status).toBe(200)
    expect(whoami.body).toMatchObject({pubkey: results.pubkey, verified: true, audience_bound: true})
    expect(callNamed('whoami-v1').body).toMatchObject({pubkey: results.pubkey, verified: true, audience_bound: false})
  })

  it('answered each preflight 204 with the allow headers the page needed', () => {
    for (const path of ['/v1/echo', '/v1/render', '/v1/whoami']) {
      const preflights = preflightsTo(path)
      // Chromium caches a preflight (Access-Control-Max-Age), so a path is preflighted at least once, not once per call.
      expect(preflights.length, `preflights to ${path}`).toBeGreaterThanOrEqual(1)
      const [first] = preflights
      expect(first.request.origin).toBe(pageOrigin)
      expect(first.request['access-control-request-method']).toBe(path === '/v1/whoami' ? 'GET' : 'POST')
      expect(split(first.request['access-control-request-headers'])).toEqual(expect.arrayContaining(['mesh-sig']))
      expect(first.status).toBe(204)
      expect(first.response['access-control-allow-origin']).toBe('*')
      expect(split(first.response['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'options']))
      expect(split(first.response['access-control-allow-headers'])).toEqual(expect.arrayContaining(['content-type', 'authorization', 'mesh-sig', 'x-payment-proof']))
    }
    // The POSTs' own preflights asked for content-type: application/json is not a CORS-safelisted type.
    expect(split(preflightsTo('/v1/echo')[0].request['access-control-request-headers'])).toEqual(expect.arrayContaining(['content-type', 'mesh-sig']))
  })

  it('answered every real call from the page with CORS headers, the 402 included', () => {
    const calls = wire.filter((exchange) => exchange.method !== 'OPTIONS')
    expect(calls.map((exchange) => [exchange.method, exchange.url, exchange.status])).toEqual([
      ['POST', '/v1/echo', 200],
      ['POST', '/v1/echo', 400],
      ['POST', '/v1/render', 402],
      ['POST', '/v1/render', 200],
      ['POST', '/v1/render', 402],
      ['POST', '/v1/topup', 200],
      ['POST', '/v1/render', 402],
      ['POST', '/v1/render', 200],
      ['GET', '/v1/whoami', 200],
      ['GET', '/v1/whoami', 200],
    ])
    for (const exchange of calls) {
      expect(exchange.request.origin).toBe(pageOrigin)
      expect(exchange.response['access-control-allow-origin']).toBe('*')
      expect(split(exchange.response['access-control-expose-headers'])).toEqual(
        expect.arrayContaining(['x-payment-network', 'x-payment-address', 'x-payment-amount', 'x-payment-nonce']),
      )
    }
  })
})
