import {once} from 'node:events'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import request from 'supertest'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {createHostApp} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createMessagingPart, verifyWebhookSignature, type MessagingPart} from '../../../src/registry/messaging/index.js'
import {createSqliteMessagingStore} from '../../../src/registry/messaging/store/sqlite.js'
import {createMemoryMessagingStore, type MessagingStore} from '../../../src/registry/messaging/store/store.js'
import {openSqlite} from '../../../src/store/sqlite.js'
import {asService, registerAgents, testContext, tokenOf} from './harness.js'

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A webhook receiver on 127.0.0.1 answering each POST with the next status of `script` (then 200). */
class Receiver {
  readonly received: Received[] = []
  script: number[] = []
  private waiters: Array<() => void> = []
  server!: Server
  url = ''

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.received.push({headers: req.headers, body: Buffer.concat(chunks).toString('utf8')})
        res.statusCode = this.script.shift() ?? 200
        res.end('ok')
        for (const wake of this.waiters.splice(0)) wake()
      })
    })
    this.server.listen(0, '127.0.0.1')
    await once(this.server, 'listening')
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`
  }

  async waitFor(count: number) {
    while (this.received.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve))
  }

  stop() {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(resolve))
  }
}

const T0 = Date.UTC(2026, 5, 1, 12)

async function setup(options: {store?: MessagingStore; worker?: boolean; allowPrivate?: boolean; maxAttempts?: number} = {}) {
  let now = T0
  const ctx = testContext({clock: () => now})
  await registerAgents(ctx.store, 'ann', 'bob')
  const part: MessagingPart = createMessagingPart(ctx, {
    store: options.store ?? createMemoryMessagingStore(),
    allowPrivateWebhooks: options.allowPrivate ?? true,
    webhookWorker: options.worker ?? false,
    tuning: {random: () => 0.5, webhookMaxAttempts: options.maxAttempts},
  })
  const app = createHostApp({services: [asService(part)], logger: silentLogger}).callback()
  const send = (payload: unknown) => request(app).post('/v1/agents/messages').set('authorization', `Bearer ${tokenOf('ann')}`).send({to: 'bob', payload})
  const status = () => request(app).get('/v1/agents/me/webhook').set('authorization', `Bearer ${tokenOf('bob')}`)
  return {ctx, part, app, send, status, advance: (ms: number) => (now += ms), now: () => now}
}

describe('webhook delivery', () => {
  const receiver = new Receiver()
  beforeAll(() => receiver.start())
  afterAll(() => receiver.stop())
  afterEach(() => {
    receiver.received.length = 0
    receiver.script = []
  })

  it('POSTs each arriving message, signed, and keeps it out of the poll inbox', async () => {
    const t = await setup({worker: true})
    await t.part.start!()
    try {
      const {webhook_secret: secret} = await t.ctx.webhooks!.set('bob', receiver.url)
      const sent = await t.send({order: 7})
      await receiver.waitFor(1)
      const [hit] = receiver.received
      expect(JSON.parse(hit!.body)).toEqual({id: sent.body.message_id, from: 'ann', payload: {order: 7}, ts: new Date(T0).toISOString()})
      expect(hit!.headers['content-type']).toBe('application/json')
      expect(hit!.headers['x-mesh-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(verifyWebhookSignature(secret!, hit!.headers['x-mesh-signature'] as string, hit!.body, {nowSeconds: T0 / 1000})).toBe(true)
      expect(hit!.headers['x-mesh-message-id']).toBe(String(sent.body.message_id))
      expect(hit!.headers['x-mesh-delivery-attempt']).toBe('1')
      // the sender gets its receipt once the receiver accepted
      await t.part.webhooksIdle()
      const annInbox = await t.part.service.read('ann')
      expect(annInbox.messages.map((m) => m.payload)).toEqual([{type: 'receipt', message_ids: [sent.body.message_id], read_by: 'bob', at: new Date(T0).toISOString(), via: 'webhook'}])
      expect((await t.status()).body).toEqual({webhook: {url: receiver.url, created_at: new Date(T0).toISOString()}, pending: {inbox: 0, webhook: 0, dead: 0}, dead_letters: []})
    } finally {
      await t.part.close()
    }
  })

  it('retries with exponential backoff until the receiver accepts', async () => {
    const t = await setup()
    await t.ctx.webhooks!.set('bob', receiver.url)
    receiver.script = [500, 503]
    await t.send('retry me')
    expect(await t.part.deliverWebhooksNow()).toBe(1)
    t.advance(999)
    expect(await t.part.deliverWebhooksNow()).toBe(0)
    t.advance(1)
    expect(await t.part.deliverWebhooksNow()).toBe(1)
    t.advance(1999)
    expect(await t.part.deliverWebhooksNow()).toBe(0)
    t.advance(1)
    expect(await t.part.deliverWebhooksNow()).toBe(1)
    expect(receiver.received.map((r) => r.headers['x-mesh-delivery-attempt'])).toEqual(['1', '2', '3'])
    expect((await t.status()).body.pending).toEqual({inbox: 0, webhook: 0, dead: 0})
  })

  it('dead-letters after the last attempt, shows it to the agent, and can requeue it', async () => {
    const t = await setup({maxAttempts: 2})
    await t.ctx.webhooks!.set('bob', receiver.url)
    receiver.script = [500, 500]
    const sent = await t.send('doomed')
    await t.part.deliverWebhooksNow()
    t.advance(1000)
    await t.part.deliverWebhooksNow()
    t.advance(10 * 3_600_000)
    expect(await t.part.deliverWebhooksNow()).toBe(0)
    const status = (await t.status()).body
    expect(status.pending).toEqual({inbox: 0, webhook: 0, dead: 1})
    expect(status.dead_letters).toEqual([{id: sent.body.message_id, from: 'ann', payload: 'doomed', ts: new Date(T0).toISOString(), attempts: 2, last_error: 'HTTP 500', dead_at: new Date(T0 + 1000).toISOString()}])
    const retry = await request(t.app).post('/v1/agents/me/webhook/retry').set('authorization', `Bearer ${tokenOf('bob')}`)
    expect(retry.body).toEqual({ok: true, requeued: 1})
    expect(await t.part.deliverWebhooksNow()).toBe(1)
    expect(receiver.received).toHaveLength(3)
  })

  it('gives queued and dead messages back to the inbox when the webhook is removed', async () => {
    const t = await setup({maxAttempts: 1})
    await t.ctx.webhooks!.set('bob', receiver.url)
    receiver.script = [500]
    await t.send('dead')
    await t.part.deliverWebhooksNow()
    await t.send('queued')
    await t.ctx.webhooks!.set('bob', null)
    expect((await t.part.service.read('bob')).messages.map((m) => m.payload)).toEqual(['dead', 'queued'])
    const retry = await request(t.app).post('/v1/agents/me/webhook/retry').set('authorization', `Bearer ${tokenOf('bob')}`)
    expect([retry.status, retry.body.error.code]).toEqual([409, 'no_webhook'])
  })

  it('never calls a private address unless allowed (SSRF), and says why', async () => {
    const store = createMemoryMessagingStore()
    const t = await setup({store, allowPrivate: false, maxAttempts: 1})
    // the URL check refuses this at set time; plant it directly, as if DNS had changed since
    await store.setWebhook('bob', receiver.url, 's'.repeat(64), T0)
    await t.send('to loopback')
    await t.part.deliverWebhooksNow()
    expect(receiver.received).toHaveLength(0)
    const [dead] = (await t.status()).body.dead_letters
    expect(dead.last_error).toMatch(/^endpoint_forbidden: /)
    await expect(t.ctx.webhooks!.set('bob', receiver.url)).rejects.toMatchObject({code: 'invalid_webhook_url'})
  })

  it('returns a fresh secret each time the webhook is set', async () => {
    const t = await setup()
    const first = await t.ctx.webhooks!.set('bob', receiver.url)
    const second = await t.ctx.webhooks!.set('bob', receiver.url)
    expect(first.webhook_secret).toMatch(/^[0-9a-f]{64}$/)
    expect(second.webhook_secret).not.toBe(first.webhook_secret)
    await t.send('signed with the new secret')
    await t.part.deliverWebhooksNow()
    const hit = receiver.received[0]!
    expect(verifyWebhookSignature(second.webhook_secret!, hit.headers['x-mesh-signature'] as string, hit.body, {nowSeconds: T0 / 1000})).toBe(true)
    expect(verifyWebhookSignature(first.webhook_secret!, hit.headers['x-mesh-signature'] as string, hit.body, {nowSeconds: T0 / 1000})).toBe(false)
  })

  it('keeps a pending retry across a restart (SQLite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mesh-webhook-'))
    try {
      const db1 = openSqlite({dataDir: dir})
      const t1 = await setup({store: createSqliteMessagingStore(db1)})
      const {webhook_secret: secret} = await t1.ctx.webhooks!.set('bob', receiver.url)
      receiver.script = [503]
      const sent = await t1.send('survives')
      await t1.part.deliverWebhooksNow()
      await t1.part.close()
      db1.close()

      const db2 = openSqlite({dataDir: dir})
      const t2 = await setup({store: createSqliteMessagingStore(db2)})
      t2.advance(1000)
      expect(await t2.part.deliverWebhooksNow()).toBe(1)
      const last = receiver.received.at(-1)!
      expect(JSON.parse(last.body).id).toBe(sent.body.message_id)
      expect(last.headers['x-mesh-delivery-attempt']).toBe('2')
      expect(verifyWebhookSignature(secret!, last.headers['x-mesh-signature'] as string, last.body, {nowSeconds: T0 / 1000})).toBe(true)
      db2.close()
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
