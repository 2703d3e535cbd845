import request from 'supertest'
import {beforeEach, describe, expect, it} from 'vitest'
import {createHostApp} from '../../../src/http/host.js'
import {notFound} from '../../../src/lib/errors.js'
import {silentLogger} from '../../../src/lib/log.js'
import {LEGACY_DEPRECATION} from '../../../src/registry/constants.js'
import {createMessagingPart, type ChannelBroadcaster} from '../../../src/registry/messaging/index.js'
import {createMemoryMessagingStore, type MessagingStore} from '../../../src/registry/messaging/store/store.js'
import {asService, registerAgents, testContext, tokenOf} from './harness.js'

const T0 = Date.UTC(2026, 5, 1, 12)

async function setup(channels?: ChannelBroadcaster) {
  const ctx = testContext({clock: () => T0})
  await registerAgents(ctx.store, 'ann', 'bob', 'cat')
  const store: MessagingStore = createMemoryMessagingStore()
  const part = createMessagingPart(ctx, {store, channels, webhookWorker: false})
  const app = createHostApp({services: [asService(part)], logger: silentLogger}).callback()
  const as = (agentId: string) => ({
    send: (body: unknown, path = '/agents/messages') => request(app).post(path).set('authorization', `Bearer ${tokenOf(agentId)}`).send(body as object),
    read: (path = '/agents/messages') => request(app).get(path).set('authorization', `Bearer ${tokenOf(agentId)}`),
    ack: (ids: unknown) => request(app).post('/agents/messages/ack').set('authorization', `Bearer ${tokenOf(agentId)}`).send({ids}),
  })
  return {ctx, app, store, part, as}
}

describe('legacy inbox routes', () => {
  let t: Awaited<ReturnType<typeof setup>>
  beforeEach(async () => {
    t = await setup()
  })

  it('sends, then consumes on read with the spec shape', async () => {
    const sent = await t.as('ann').send({to: 'bob', payload: {hello: 'bob', n: [1, 2]}})
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ok: true, message_id: expect.any(Number)})
    const read = await t.as('bob').read()
    expect(read.status).toBe(200)
    expect(read.body).toEqual({messages: [{id: sent.body.message_id, from: 'ann', payload: {hello: 'bob', n: [1, 2]}, ts: new Date(T0).toISOString()}]})
    expect((await t.as('bob').read()).body).toEqual({messages: []})
  })

  it('sends a delivery receipt to each sender when the inbox is read', async () => {
    const a1 = await t.as('ann').send({to: 'bob', payload: 1})
    const c1 = await t.as('cat').send({to: 'bob', payload: 2})
    const a2 = await t.as('ann').send({to: 'bob', payload: 3})
    await t.as('bob').read()
    const annInbox = (await t.as('ann').read()).body.messages
    expect(annInbox).toEqual([
      {
        id: expect.any(Number),
        from: 'registry',
        payload: {type: 'receipt', message_ids: [a1.body.message_id, a2.body.message_id], read_by: 'bob', at: new Date(T0).toISOString(), via: 'read'},
        ts: new Date(T0).toISOString(),
      },
    ])
    expect((await t.as('cat').read()).body.messages[0].payload.message_ids).toEqual([c1.body.message_id])
    // reading receipts sends no receipt to the registry itself
    expect(await t.store.counts('registry')).toEqual({inbox: 0, webhook: 0, dead: 0})
  })

  it('acks without returning, and the sender still gets a receipt', async () => {
    const one = await t.as('ann').send({to: 'bob', payload: 'one'})
    const two = await t.as('ann').send({to: 'bob', payload: 'two'})
    const acked = await t.as('bob').ack([one.body.message_id, 424242])
    expect(acked.body).toEqual({ok: true, acked: 1})
    expect(acked.headers.deprecation).toBe(LEGACY_DEPRECATION)
    expect((await t.as('bob').read()).body.messages.map((m: {id: number}) => m.id)).toEqual([two.body.message_id])
    const receipts = (await t.as('ann').read()).body.messages.map((m: {payload: {via: string; message_ids: number[]}}) => m.payload)
    expect(receipts.map((r: {via: string; message_ids: number[]}) => [r.via, r.message_ids])).toEqual([
      ['ack', [one.body.message_id]],
      ['read', [two.body.message_id]],
    ])
  })

  it('never lets one agent read or ack another agent’s messages', async () => {
    const sent = await t.as('ann').send({to: 'bob', payload: 'private'})
    expect((await t.as('cat').ack([sent.body.message_id])).body.acked).toBe(0)
    expect((await t.as('cat').read()).body.messages).toEqual([])
    expect((await t.as('bob').read()).body.messages).toHaveLength(1)
  })

  it('refuses bad input with clear errors', async () => {
    const cases: Array<[unknown, number, string, string?]> = [
      [{payload: 1}, 400, 'invalid_recipient', 'to'],
      [{to: 'x', payload: 1}, 400, 'invalid_recipient', 'to'],
      [{to: 'bob'}, 400, 'missing_payload', 'payload'],
      [{to: 'nobody-here', payload: 1}, 404, 'unknown_recipient', 'to'],
      [{to: 'bob', payload: 'x'.repeat(64 * 1024)}, 413, 'payload_too_large', 'payload'],
    ]
    for (const [body, status, code, field] of cases) {
      const res = await t.as('ann').send(body)
      expect([res.status, res.body.error.code, res.body.error.field]).toEqual([status, code, field])
    }
    const huge = await t.as('ann').send({to: 'bob', payload: 'x'.repeat(80 * 1024)})
    expect([huge.status, huge.body.error.code]).toEqual([413, 'body_too_large'])
    const notJson = await request(t.app).post('/agents/messages').set('authorization', `Bearer ${tokenOf('ann')}`).set('content-type', 'application/json').send('{nope')
    expect(notJson.body.error.code).toBe('invalid_json')
    expect((await t.as('bob').ack('1')).body.error).toMatchObject({code: 'invalid_ids', field: 'ids'})
    expect((await t.as('bob').ack([1.5])).status).toBe(400)
    expect((await t.as('bob').read('/agents/messages?limit=0')).body.error.code).toBe('invalid_limit')
  })

  it('requires a bearer token on every route', async () => {
    for (const res of [
      await request(t.app).get('/agents/messages'),
      await request(t.app).post('/agents/messages').send({to: 'bob', payload: 1}),
      await request(t.app).post('/agents/messages/ack').send({ids: [1]}),
      await request(t.app).get('/v1/agents/messages').set('authorization', 'Bearer tok-ghost'),
    ]) {
      expect(res.status).toBe(401)
      expect(res.body.error.code).toMatch(/missing_token|invalid_token/)
    }
  })

  it('answers 409 webhook_active to polling while a webhook is set, and polls again once removed', async () => {
    await t.as('ann').send({to: 'bob', payload: 'queued'})
    const {webhook_secret} = await t.ctx.webhooks!.set('bob', 'https://bob.example/hook')
    expect(webhook_secret).toMatch(/^[0-9a-f]{64}$/)
    const res = await t.as('bob').read()
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('webhook_active')
    // the message sent before the webhook was set now waits for the webhook, not the inbox
    expect(await t.store.counts('bob')).toEqual({inbox: 0, webhook: 1, dead: 0})
    expect(await t.ctx.webhooks!.set('bob', null)).toEqual({})
    expect((await t.as('bob').read()).body.messages.map((m: {payload: unknown}) => m.payload)).toEqual(['queued'])
  })

  it('marks legacy routes deprecated and serves the /v1 twins without the header', async () => {
    const legacy = await t.as('ann').send({to: 'bob', payload: 1})
    expect(legacy.headers.deprecation).toBe(LEGACY_DEPRECATION)
    expect(legacy.headers.link).toBe('<http://registry.test/v1/agents/messages>; rel="successor-version"')
    const modern = await t.as('ann').send({to: 'bob', payload: 2}, '/v1/agents/messages')
    expect(modern.status).toBe(200)
    expect(modern.headers.deprecation).toBeUndefined()
    const read = await t.as('bob').read('/v1/agents/messages?limit=1')
    expect(read.body.messages.map((m: {payload: unknown}) => m.payload)).toEqual([1])
    expect(read.headers['cache-control']).toBe('no-store')
  })

  it('answers 404 unknown_channel when no cluster relay is wired', async () => {
    const res = await t.as('ann').send({payload: {hi: 1}}, '/agents/channels/c0ffee/send')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('unknown_channel')
  })
})

describe('channel broadcast', () => {
  it('broadcasts on the cluster wall through the relay and reports how many got it', async () => {
    const calls: unknown[] = []
    const t = await setup({
      async broadcast(clusterId, from, payload, clusterToken) {
        calls.push([clusterId, from, payload, clusterToken])
        if (clusterId !== 'cl_known') throw notFound('cluster_not_found', 'No such cluster')
        return {delivered: 3}
      },
    })
    const ok = await t.as('ann').send({payload: {hi: 1}}, '/agents/channels/cl_known/send')
    expect(ok.body).toEqual({ok: true, delivered: 3})
    expect(calls).toEqual([['cl_known', 'ann', {hi: 1}, undefined]])
    const missing = await t.as('ann').send({payload: 1}, '/v1/agents/channels/cl_missing/send')
    expect([missing.status, missing.body.error.code]).toEqual([404, 'unknown_channel'])
    const noPayload = await t.as('ann').send({}, '/agents/channels/cl_known/send')
    expect([noPayload.status, noPayload.body.error.code]).toEqual([400, 'missing_payload'])
  })

  it("hands the relay the cluster's token from x-cluster-token or ?token (Authorization is the agent's JWT)", async () => {
    const tokens: unknown[] = []
    const t = await setup({
      async broadcast(_clusterId, _from, _payload, clusterToken) {
        tokens.push(clusterToken)
        return {delivered: 0}
      },
    })
    const bearer = `Bearer ${tokenOf('ann')}`
    await request(t.app).post('/agents/channels/cl_known/send').set('authorization', bearer).set('x-cluster-token', ' ck_header ').send({payload: 1})
    await request(t.app).post('/v1/agents/channels/cl_known/send?token=ck_query').set('authorization', bearer).send({payload: 1})
    await request(t.app).post('/v1/agents/channels/cl_known/send?token=').set('authorization', bearer).send({payload: 1})
    expect(tokens).toEqual(['ck_header', 'ck_query', undefined])
    const twice = await request(t.app).post('/agents/channels/cl_known/send?token=a&token=b').set('authorization', bearer).send({payload: 1})
    expect([twice.status, twice.body.error.code, twice.body.error.field]).toEqual([400, 'invalid_query', 'token'])
    expect(tokens).toHaveLength(3)
  })
})
