import {mkdirSync, writeFileSync} from 'node:fs'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {MeshError} from '../../../../src/lib/errors.js'
import {INTERRUPTED_REASON} from '../../../../src/daemon/chat/queue/constants.js'
import {startQueueDispatch, type QueueDispatch} from '../../../../src/daemon/chat/queue/dispatcher.js'
import {queueStoreOf, type QueueStore} from '../../../../src/daemon/chat/queue/store.js'
import {fakeEngine, type FakeEngine} from '../fake-engine.js'
import {queueFixture, type QueueFixture} from './queue-context.js'

let fixture: QueueFixture
let engine: FakeEngine
let store: QueueStore
let dispatch: QueueDispatch | undefined
beforeEach(async () => {
  fixture = await queueFixture()
  engine = fakeEngine()
  store = queueStoreOf(fixture.context)
})
afterEach(async () => {
  await dispatch?.stop()
  dispatch = undefined
  await fixture.cleanup()
})

const queueTurns = () => engine.submitted.filter((input) => input.origin === 'queue')
const statuses = async (conv: string) => (await store.read(conv)).items.map((item) => `${item.text}:${item.status}`)
/** The operator's own turn in conv, running. */
const operatorTurn = (conv: string, member = 'architect') => engine.submit({conv, member, text: 'hello', author: 'operator', origin: 'send'})

describe('queue dispatcher', () => {
  it('sends exactly one head item per idle of its conv, in queue order, as an operator turn of the conv member', async () => {
    dispatch = await startQueueDispatch(fixture.context, engine)
    await operatorTurn('c-1', 'developer')
    for (const text of ['one', 'two', 'three']) await store.add('c-1', {text})
    const three = (await store.read('c-1')).items[2]
    await store.move('c-1', three.id, {position: 0})

    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns().map((input) => input.text)).toEqual(['three'])
    expect(queueTurns()[0]).toMatchObject({conv: 'c-1', member: 'developer', author: 'operator', origin: 'queue', meta: {queue_item: three.id}})
    expect(await statuses('c-1')).toEqual(['one:queued', 'two:queued'])
    const sent = fixture.events.find((event) => event.type === 'queue.item.sent')
    expect(sent?.data).toMatchObject({conv: 'c-1', turn_id: engine.conversation('c-1')?.turn_id, item: {id: three.id, status: 'sent', sent_at: expect.any(String)}})

    // The queued turn's own end sends the next one, and so on until the queue is empty.
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns().map((input) => input.text)).toEqual(['three', 'one'])
    await engine.finish('c-1')
    await dispatch.settled()
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns().map((input) => input.text)).toEqual(['three', 'one', 'two'])
    expect((await store.read('c-1')).items).toEqual([])
    expect(engine.isLive('c-1')).toBe(false)
  })

  it('sends nothing while the conv is coordinating (open delegation requests) and nothing into a conv that is live again', async () => {
    let coordinating = true
    engine.addCoordinatingCheck((conv) => conv === 'c-1' && coordinating)
    // Another idle listener, registered before the queue's, starts a turn in the conv (a wake, say).
    let wake = false
    engine.onIdle((conv) => {
      if (wake) void engine.submit({conv, member: 'architect', text: 'wake', author: 'daemon', origin: 'wake'})
    })
    dispatch = await startQueueDispatch(fixture.context, engine)
    await operatorTurn('c-1')
    await store.add('c-1', {text: 'later'})

    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual([])

    coordinating = false
    wake = true
    await operatorTurn('c-1')
    await engine.finish('c-1')
    await dispatch.settled()
    expect(engine.submitted.at(-1)).toMatchObject({origin: 'wake'})
    expect(queueTurns()).toEqual([])
    expect(await statuses('c-1')).toEqual(['later:queued'])

    // The wake's end is a finished turn in a conv that is idle for good: now the queue goes.
    wake = false
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns().map((input) => input.text)).toEqual(['later'])
  })

  it('an idle of another conv sends nothing from this one', async () => {
    dispatch = await startQueueDispatch(fixture.context, engine)
    await store.add('c-1', {text: 'mine'})
    await operatorTurn('c-2')
    await engine.finish('c-2')
    await dispatch.settled()
    expect(queueTurns()).toEqual([])
  })

  it('a refused send fails its item with the reason and is not retried; the next idle sends the next item', async () => {
    dispatch = await startQueueDispatch(fixture.context, engine)
    await operatorTurn('c-1')
    await store.add('c-1', {text: 'a'})
    await store.add('c-1', {text: 'b'})
    engine.refuseWith = new MeshError('not_found', 'member_not_found', 'No team member ghost')
    await engine.finish('c-1')
    await dispatch.settled()
    expect((await store.read('c-1')).items[0]).toMatchObject({text: 'a', status: 'failed', failed_reason: 'member_not_found: No team member ghost'})
    expect(await statuses('c-1')).toEqual(['a:failed', 'b:queued'])
    expect(engine.submitted).toHaveLength(1)

    engine.refuseWith = null
    await operatorTurn('c-1')
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns().map((input) => input.text)).toEqual(['b'])
    expect(await statuses('c-1')).toEqual(['a:failed'])
  })

  it('at capacity the dispatched item fails with at_capacity (the operator promotes it again)', async () => {
    dispatch = await startQueueDispatch(fixture.context, engine)
    await operatorTurn('c-1')
    await operatorTurn('c-2')
    await store.add('c-1', {text: 'a'})
    engine.capacity = 1
    await engine.finish('c-1')
    await dispatch.settled()
    expect((await store.read('c-1')).items[0]).toMatchObject({status: 'failed', failed_reason: expect.stringMatching(/^at_capacity: /)})
  })

  it('at start, items a stopped daemon left sending become failed, and nothing is sent until a turn ends', async () => {
    mkdirSync(fixture.path('queues'), {recursive: true})
    const item = (id: string, position: number, status: string) => ({id, text: id, created_at: '2026-03-01T09:00:00.000Z', position, status})
    writeFileSync(fixture.path('queues', 'c-1.json'), JSON.stringify({conv: 'c-1', version: 7, items: [item('q-a', 0, 'sending'), item('q-b', 1, 'queued')]}))
    dispatch = await startQueueDispatch(fixture.context, engine)
    const file = await store.read('c-1')
    expect(file.version).toBe(8)
    expect(file.items).toEqual([{...item('q-a', 0, 'failed'), failed_reason: INTERRUPTED_REASON}, item('q-b', 1, 'queued')])
    expect(fixture.events.map((event) => [event.type, event.data.item.id, event.data.item.status])).toEqual([['queue.item.updated', 'q-a', 'failed']])
    expect(engine.submitted).toEqual([])
  })

  it('after stop, an idle sends nothing', async () => {
    dispatch = await startQueueDispatch(fixture.context, engine)
    await operatorTurn('c-1')
    await store.add('c-1', {text: 'a'})
    await dispatch.stop()
    await engine.finish('c-1')
    expect(queueTurns()).toEqual([])
    expect(await statuses('c-1')).toEqual(['a:queued'])
  })
})
