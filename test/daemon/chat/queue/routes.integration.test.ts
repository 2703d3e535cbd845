import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {MeshError} from '../../../../src/lib/errors.js'
import {queueRoutes} from '../../../../src/daemon/chat/queue/routes.js'
import type {DaemonEvent} from '../../../../src/protocol/events.js'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {fakeEngine, type FakeEngine} from '../fake-engine.js'

let harness: DaemonHarness
let engine: FakeEngine
let events: DaemonEvent<any>[]
beforeEach(async () => {
  engine = fakeEngine()
  harness = await startHarness({areas: [(context) => ({name: 'queue', routes: queueRoutes(context, engine)})]})
  events = []
  harness.running.daemon.context.events.subscribe((event) => void (event.type.startsWith('queue.') && events.push(event)))
})
afterEach(() => harness.close())

const Q = '/chat/conv/c-1/queue'
const post = (path: string, body: unknown) => harness.call('POST', path, {auth: true, body: JSON.stringify(body)})
const add = async (text: string, extra: Record<string, unknown> = {}) => {
  const res = await post(Q, {text, ...extra})
  expect(res.status).toBe(201)
  return res.body as {id: string; text: string; position: number; status: string}
}

describe('queue routes', () => {
  it('need the portal token, every one of them', async () => {
    for (const [method, path] of [['GET', '/chat/queues'], ['GET', Q], ['POST', Q], ['POST', `${Q}/q-1/edit`], ['POST', `${Q}/q-1/move`], ['POST', `${Q}/q-1/promote`], ['DELETE', `${Q}/q-1`]]) {
      const res = await harness.call(method, path, method === 'POST' ? {body: '{}'} : {})
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 401, 'portal_token_required'])
    }
  })

  it('refuse a conv id that is not one (400 invalid_conv) before a file is touched', async () => {
    for (const conv of ['Caps', '..', '%2e%2e%2fx', '-lead', 'a'.repeat(81), 'a%2Fb']) {
      const res = await harness.call('GET', `/chat/conv/${conv}/queue`, {auth: true})
      expect([conv, res.status, res.body.error?.code]).toEqual([conv, 400, 'invalid_conv'])
    }
  })

  it('list, enqueue, edit, move and remove, with the file and events to match', async () => {
    expect((await harness.call('GET', Q, {auth: true})).body).toEqual({conv: 'c-1', version: 0, state: 'active', items: []})
    const a = await add('first')
    const b = await add('second')
    expect(a).toMatchObject({text: 'first', position: 0, status: 'queued', created_at: expect.any(String)})
    expect((await post(`${Q}/${b.id}/edit`, {text: 'second, edited'})).body).toMatchObject({id: b.id, text: 'second, edited'})
    expect((await post(`${Q}/${b.id}/move`, {position: 0})).body).toMatchObject({id: b.id, position: 0})
    const removed = await harness.call('DELETE', `${Q}/${a.id}`, {auth: true})
    expect(removed.body).toMatchObject({id: a.id, status: 'cancelled'})
    const listed = (await harness.call('GET', Q, {auth: true})).body
    expect(listed).toMatchObject({conv: 'c-1', version: 5, items: [{id: b.id, text: 'second, edited', position: 0, status: 'queued'}]})
    expect(JSON.parse(harness.repo.read('.mesh/queues/c-1.json'))).toEqual(listed)
    expect(events.map((event) => [event.type, event.data.conv, event.data.version, event.data.item.id])).toEqual([
      ['queue.item.added', 'c-1', 1, a.id],
      ['queue.item.added', 'c-1', 2, b.id],
      ['queue.item.updated', 'c-1', 3, b.id],
      ['queue.item.updated', 'c-1', 4, b.id],
      ['queue.item.removed', 'c-1', 5, a.id],
    ])
  })

  it('list every queue that holds items, by conv, leaving out empty and unreadable files', async () => {
    expect((await harness.call('GET', '/chat/queues', {auth: true})).body).toEqual({queues: []})
    await add('for c-1')
    const other = await post('/chat/conv/b-2/queue', {text: 'for b-2', member: 'developer'})
    expect(other.status).toBe(201)
    const emptied = await post('/chat/conv/c-3/queue', {text: 'gone soon'})
    expect((await harness.call('DELETE', `/chat/conv/c-3/queue/${emptied.body.id}`, {auth: true})).status).toBe(200)
    harness.repo.write('.mesh/queues/c-4.json', '{"not": "a queue"}')
    harness.repo.write('.mesh/queues/.c-5.json.tmp', '{}')
    const listed = (await harness.call('GET', '/chat/queues', {auth: true})).body
    expect(listed.queues.map((queue: {conv: string; items: Array<{text: string}>}) => [queue.conv, queue.items.map((item) => item.text)])).toEqual([
      ['b-2', ['for b-2']],
      ['c-1', ['for c-1']],
    ])
    expect(listed.queues[0]).toMatchObject({member: 'developer', version: 1, state: 'active'})
  })

  it('answer the stable codes of the limits and conflicts', async () => {
    expect((await post(Q, {text: 'x'.repeat(64 * 1024 + 1)})).body.error).toMatchObject({code: 'text_too_large', field: 'text'})
    expect((await post(Q, {text: 'x'.repeat(64 * 1024 + 1)})).status).toBe(413)
    expect(await post(Q, {text: ''}).then((res) => [res.status, res.body.error.code, res.body.error.field])).toEqual([400, 'invalid_body', 'text'])
    expect(await post(Q, {text: 'x', colour: 'red'}).then((res) => [res.status, res.body.error.code])).toEqual([400, 'invalid_body'])
    expect(await post(Q, {text: 'x', member: 'Not A Member'}).then((res) => [res.status, res.body.error.code])).toEqual([400, 'invalid_body'])
    for (let n = 0; n < 50; n++) await add(`item ${n}`)
    expect(await post(Q, {text: 'x'}).then((res) => [res.status, res.body.error.code])).toEqual([409, 'queue_full'])
    expect(await post(Q, {text: 'x'}).then((res) => [res.status, res.body.error.code])).toEqual([409, 'queue_full'])
    const stale = await post(`${Q}/${(await harness.call('GET', Q, {auth: true})).body.items[0].id}/edit`, {text: 'y', version: 3})
    expect([stale.status, stale.body.error.code, stale.body.error.version]).toEqual([409, 'version_conflict', 50])
    const staleDelete = await harness.call('DELETE', `${Q}/q-000000000000?version=1`, {auth: true})
    expect([staleDelete.status, staleDelete.body.error.code]).toEqual([409, 'version_conflict'])
    const badVersion = await harness.call('DELETE', `${Q}/q-000000000000?version=two`, {auth: true})
    expect([badVersion.status, badVersion.body.error.code]).toEqual([400, 'invalid_query'])
    const unknown = await harness.call('DELETE', `${Q}/q-000000000000`, {auth: true})
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'item_not_found'])
    expect(await post(`${Q}/q-000000000000/move`, {position: -1}).then((res) => [res.status, res.body.error.code])).toEqual([400, 'invalid_body'])
  })

  it('promote sends the item now as a turn of the conv (queued → sending → sent) and answers the turn', async () => {
    await engine.submit({conv: 'c-1', member: 'developer', text: 'busy', author: 'operator', origin: 'send'})
    await add('first')
    const b = await add('second')
    const res = await post(`${Q}/${b.id}/promote`, {})
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({item: {id: b.id, status: 'sent', sent_at: expect.any(String)}, turn: {conv: 'c-1', state: 'waiting'}})
    expect(engine.submitted.at(-1)).toMatchObject({conv: 'c-1', member: 'developer', text: 'second', author: 'operator', origin: 'queue'})
    expect((await harness.call('GET', Q, {auth: true})).body.items.map((item: {text: string}) => item.text)).toEqual(['first'])
    expect(events.slice(-2).map((event) => [event.type, event.data.item.status])).toEqual([
      ['queue.item.updated', 'sending'],
      ['queue.item.sent', 'sent'],
    ])
    expect(events.at(-1)?.data.turn_id).toBe(res.body.turn.turn_id)
  })

  it('promote at capacity keeps the item queued and answers 429; another refusal fails it; a failed item can be promoted again', async () => {
    const a = await add('a')
    engine.capacity = 0
    const busy = await post(`${Q}/${a.id}/promote`, {})
    expect([busy.status, busy.body.error.code, busy.headers['retry-after']]).toEqual([429, 'at_capacity', '5'])
    expect((await harness.call('GET', Q, {auth: true})).body.items[0]).toMatchObject({id: a.id, status: 'queued'})

    engine.capacity = Number.POSITIVE_INFINITY
    engine.refuseWith = new MeshError('not_found', 'member_not_found', 'No team member architect')
    const refused = await post(`${Q}/${a.id}/promote`, {})
    expect([refused.status, refused.body.error.code]).toEqual([404, 'member_not_found'])
    expect((await harness.call('GET', Q, {auth: true})).body.items[0]).toMatchObject({status: 'failed', failed_reason: 'member_not_found: No team member architect'})
    expect((await post(`${Q}/${a.id}/edit`, {text: 'x'})).body.error.code).toBe('item_failed')

    engine.refuseWith = null
    const again = await post(`${Q}/${a.id}/promote`, {})
    expect(again.body.item).toMatchObject({id: a.id, status: 'sent'})
    expect(again.body.item.failed_reason).toBeUndefined()
  })

  it('a conv the engine does not know runs with the queue member (default architect); a known conv refuses another member', async () => {
    const fresh = await harness.call('POST', '/chat/conv/c-new/queue', {auth: true, body: JSON.stringify({text: 'x', member: 'developer'})})
    await harness.call('POST', `/chat/conv/c-new/queue/${fresh.body.id}/promote`, {auth: true})
    const plain = await harness.call('POST', '/chat/conv/c-plain/queue', {auth: true, body: JSON.stringify({text: 'y'})})
    await harness.call('POST', `/chat/conv/c-plain/queue/${plain.body.id}/promote`, {auth: true})
    expect(engine.submitted.map((input) => [input.conv, input.member])).toEqual([
      ['c-new', 'developer'],
      ['c-plain', 'architect'],
    ])
    const mismatch = await harness.call('POST', '/chat/conv/c-new/queue', {auth: true, body: JSON.stringify({text: 'z', member: 'consultant'})})
    expect([mismatch.status, mismatch.body.error.code, mismatch.body.error.field]).toEqual([409, 'member_mismatch', 'member'])
  })
})
