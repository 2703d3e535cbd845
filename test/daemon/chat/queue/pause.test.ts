/**
 * After a failed turn the queue holds (issue 19, Recovery): the pause hook
 * pauses a queue with queued items, the dispatcher then sends nothing on the
 * idle that follows, a promote still goes, and resume sends the head when
 * the conv is idle and not coordinating. A turn cut by the daemon's own stop
 * pauses nothing.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {startQueueDispatch, type QueueDispatch} from '../../../../src/daemon/chat/queue/dispatcher.js'
import {queuePauseHook} from '../../../../src/daemon/chat/queue/pause-hook.js'
import {queueStoreOf, type QueueStore} from '../../../../src/daemon/chat/queue/store.js'
import {fakeEngine, type FakeEngine} from '../fake-engine.js'
import {queueFixture, type QueueFixture} from './queue-context.js'

let fixture: QueueFixture
let engine: FakeEngine
let store: QueueStore
let dispatch: QueueDispatch
let coordinating = false
beforeEach(async () => {
  fixture = await queueFixture()
  engine = fakeEngine()
  store = queueStoreOf(fixture.context)
  coordinating = false
  engine.onFinal(queuePauseHook(fixture.context))
  dispatch = await startQueueDispatch(fixture.context, engine, {isCoordinating: () => coordinating})
})
afterEach(async () => {
  await dispatch.stop()
  await fixture.cleanup()
})

const queueTurns = () => engine.submitted.filter((input) => input.origin === 'queue').map((input) => input.text)
const operatorTurn = (conv: string) => engine.submit({conv, member: 'architect', text: 'hello', author: 'operator', origin: 'send'})

describe('a paused queue', () => {
  it('holds every item after a failed turn, says why, and goes on one item per idle once resumed', async () => {
    await operatorTurn('c-1')
    for (const text of ['one', 'two', 'three']) await store.add('c-1', {text})
    const failed = await engine.finish('c-1', {status: 'failed', reason: 'exit', exit_code: 1})
    await dispatch.settled()
    expect(queueTurns()).toEqual([])
    const file = await store.read('c-1')
    expect(file).toMatchObject({state: 'paused', paused: {turn_id: failed.turn_id, reason: `turn ${failed.turn_id} of architect failed (exit)`}})
    expect(file.items.map((item) => item.status)).toEqual(['queued', 'queued', 'queued'])
    expect(fixture.events.filter((event) => event.type === 'queue.paused').map((event) => event.data.paused.turn_id)).toEqual([failed.turn_id])

    // A successful turn meanwhile does not let it go: only the operator does.
    await operatorTurn('c-1')
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual([])

    const resumed = await store.resume('c-1')
    expect(resumed).toMatchObject({state: 'active', items: [{text: 'one'}, {text: 'two'}, {text: 'three'}]})
    expect(resumed.paused).toBeUndefined()
    expect(fixture.events.at(-1)).toMatchObject({type: 'queue.resumed', data: {conv: 'c-1', queued: 3}})
    dispatch.kick('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual(['one'])
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual(['one', 'two'])
  })

  it('still sends an item the operator promotes, and stays paused', async () => {
    await operatorTurn('c-1')
    const [first] = [await store.add('c-1', {text: 'one'}), await store.add('c-1', {text: 'two'})]
    await engine.finish('c-1', {status: 'failed', reason: 'timeout'})
    await dispatch.settled()
    const claimed = await store.claim('c-1', {id: first.id, from: ['queued']})
    expect(claimed?.item.status).toBe('sending')
    expect((await store.read('c-1')).state).toBe('paused')
    // The dispatcher's own claim (no id) answers nothing while paused.
    expect(await store.claim('c-1', {from: ['queued']})).toBeNull()
  })

  it('is not paused by a turn the daemon stopped, nor when it holds no queued item; resume of an active queue is 409', async () => {
    await operatorTurn('c-1')
    await store.add('c-1', {text: 'one'})
    await engine.finish('c-1', {status: 'failed', reason: 'shutdown'})
    await dispatch.settled()
    expect((await store.read('c-1')).state).toBe('active')

    await operatorTurn('c-2')
    await engine.finish('c-2', {status: 'failed', reason: 'exit'})
    expect(await store.read('c-2')).toEqual({conv: 'c-2', version: 0, state: 'active', items: []})
    await expect(store.resume('c-2')).rejects.toMatchObject({code: 'queue_not_paused'})
  })

  it('a kick sends nothing into a conv that is live or coordinating', async () => {
    await operatorTurn('c-1')
    await store.add('c-1', {text: 'one'})
    await engine.finish('c-1', {status: 'failed', reason: 'exit'})
    await store.resume('c-1')
    coordinating = true
    dispatch.kick('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual([])
    coordinating = false
    await operatorTurn('c-1')
    dispatch.kick('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual([])
    await engine.finish('c-1')
    await dispatch.settled()
    expect(queueTurns()).toEqual(['one'])
  })
})
