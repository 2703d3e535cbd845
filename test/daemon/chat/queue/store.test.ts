import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {getValidator} from '../../../../src/lib/schemas.js'
import {INTERRUPTED_REASON, QUEUE_MAX_ITEMS, QUEUE_MAX_TEXT_BYTES} from '../../../../src/daemon/chat/queue/constants.js'
import {createQueueStore, type QueueStore} from '../../../../src/daemon/chat/queue/store.js'
import {queueFixture, type QueueFixture} from './queue-context.js'

let fixture: QueueFixture
let store: QueueStore
beforeEach(async () => {
  fixture = await queueFixture()
  store = createQueueStore(fixture.context)
})
afterEach(() => fixture.cleanup())

const onDisk = (conv: string) => JSON.parse(readFileSync(fixture.path('queues', `${conv}.json`), 'utf8'))
const texts = async (conv: string) => (await store.read(conv)).items.map((item) => item.text)

describe('queue store', () => {
  it('reads an unknown conv as an empty queue at version 0, without writing a file', async () => {
    expect(await store.read('c-1')).toEqual({conv: 'c-1', version: 0, state: 'active', items: []})
    expect(existsSync(fixture.path('queues', 'c-1.json'))).toBe(false)
  })

  it('appends queued items in order, one version per write, in a file that matches schemas/queue.schema.json', async () => {
    const first = await store.add('c-1', {text: 'one'})
    const second = await store.add('c-1', {text: 'two'})
    expect(first).toMatchObject({text: 'one', position: 0, status: 'queued'})
    expect(first.id).toMatch(/^q-[0-9a-f]{12}$/)
    expect(second).toMatchObject({text: 'two', position: 1, status: 'queued'})
    expect(second.id).not.toBe(first.id)
    const file = onDisk('c-1')
    expect(file).toEqual({conv: 'c-1', version: 2, state: 'active', items: [first, second]})
    expect(getValidator('queue')(file)).toBe(true)
    expect(first.created_at).toBe('2026-03-01T10:00:02.000Z')
    expect(fixture.events.map((event) => [event.type, event.data.version, event.data.item.id])).toEqual([
      ['queue.item.added', 1, first.id],
      ['queue.item.added', 2, second.id],
    ])
    expect(fixture.events[0].data).toEqual({conv: 'c-1', version: 1, item: first})
  })

  it('holds at most 50 unfinished items: the 51st is 409 queue_full; a sent one frees its place', async () => {
    for (let n = 0; n < QUEUE_MAX_ITEMS; n++) await store.add('c-1', {text: `item ${n}`})
    await expect(store.add('c-1', {text: 'one too many'})).rejects.toMatchObject({kind: 'conflict', code: 'queue_full'})
    const claimed = await store.claim('c-1', {from: ['queued']})
    await store.settle('c-1', claimed!.item.id, {status: 'sent', turn_id: 't-1'})
    await store.add('c-1', {text: 'now it fits'})
    expect((await store.read('c-1')).items).toHaveLength(QUEUE_MAX_ITEMS)
  })

  it('limits the text in UTF-8 bytes: 64 KB fits, one byte more is 413 text_too_large; blank is 400 text_empty', async () => {
    const fits = 'é'.repeat(QUEUE_MAX_TEXT_BYTES / 2)
    await store.add('c-1', {text: fits})
    // Fewer than 65,536 characters but more bytes: refused.
    const over = 'é'.repeat(QUEUE_MAX_TEXT_BYTES / 2) + 'x'
    expect(over.length).toBeLessThan(QUEUE_MAX_TEXT_BYTES)
    await expect(store.add('c-1', {text: over})).rejects.toMatchObject({kind: 'too_large', code: 'text_too_large', field: 'text'})
    const [item] = (await store.read('c-1')).items
    await expect(store.edit('c-1', item.id, {text: over})).rejects.toMatchObject({code: 'text_too_large'})
    await expect(store.add('c-1', {text: ' \n\t'})).rejects.toMatchObject({kind: 'invalid', code: 'text_empty'})
    expect(await texts('c-1')).toEqual([fits])
  })

  it('refuses a write against a version the queue is no longer at (409 version_conflict with the current one)', async () => {
    await store.add('c-1', {text: 'one'})
    await expect(store.add('c-1', {text: 'two', version: 0})).rejects.toMatchObject({code: 'version_conflict', details: {version: 1}})
    const two = await store.add('c-1', {text: 'two', version: 1})
    await expect(store.edit('c-1', two.id, {text: 'deux', version: 1})).rejects.toMatchObject({code: 'version_conflict'})
    await store.edit('c-1', two.id, {text: 'deux', version: 2})
    expect(await texts('c-1')).toEqual(['one', 'deux'])
  })

  it('edits, moves and removes queued items, announcing each; positions follow the order', async () => {
    const [a, b, c] = [await store.add('c-1', {text: 'a'}), await store.add('c-1', {text: 'b'}), await store.add('c-1', {text: 'c'})]
    fixture.events.length = 0

    expect(await store.edit('c-1', b.id, {text: 'B'})).toMatchObject({id: b.id, text: 'B', position: 1})
    expect(await store.move('c-1', c.id, {position: 0})).toMatchObject({id: c.id, position: 0})
    expect(await texts('c-1')).toEqual(['c', 'a', 'B'])
    // Past the end means last.
    expect(await store.move('c-1', c.id, {position: 99})).toMatchObject({position: 2})
    expect((await store.read('c-1')).items.map((item) => [item.text, item.position])).toEqual([['a', 0], ['B', 1], ['c', 2]])

    expect(await store.remove('c-1', a.id)).toMatchObject({id: a.id, status: 'cancelled'})
    expect((await store.read('c-1')).items.map((item) => [item.text, item.position])).toEqual([['B', 0], ['c', 1]])
    expect(fixture.events.map((event) => [event.type, event.data.item.text, event.data.item.position, event.data.item.status])).toEqual([
      ['queue.item.updated', 'B', 1, 'queued'],
      ['queue.item.updated', 'c', 0, 'queued'],
      ['queue.item.updated', 'c', 2, 'queued'],
      ['queue.item.removed', 'a', 0, 'cancelled'],
    ])
    await expect(store.edit('c-1', 'q-000000000000', {text: 'x'})).rejects.toMatchObject({kind: 'not_found', code: 'item_not_found'})
  })

  it('only queued items are edited or moved; a sending item cannot be removed; a failed one can', async () => {
    const a = await store.add('c-1', {text: 'a'})
    await store.claim('c-1', {from: ['queued']})
    await expect(store.edit('c-1', a.id, {text: 'x'})).rejects.toMatchObject({kind: 'conflict', code: 'item_sending'})
    await expect(store.move('c-1', a.id, {position: 0})).rejects.toMatchObject({code: 'item_sending'})
    await expect(store.remove('c-1', a.id)).rejects.toMatchObject({code: 'item_sending'})
    await store.settle('c-1', a.id, {status: 'failed', reason: 'member_not_found: no card'})
    await expect(store.edit('c-1', a.id, {text: 'x'})).rejects.toMatchObject({code: 'item_failed'})
    expect((await store.read('c-1')).items[0]).toMatchObject({status: 'failed', failed_reason: 'member_not_found: no card'})
    await store.remove('c-1', a.id)
    expect((await store.read('c-1')).items).toEqual([])
  })

  it('claims the head (first queued item, past failed ones); a sent item leaves the file and is announced with its turn', async () => {
    const [a, b] = [await store.add('c-1', {text: 'a'}), await store.add('c-1', {text: 'b'})]
    await store.claim('c-1', {id: a.id, from: ['queued']})
    await store.settle('c-1', a.id, {status: 'failed', reason: 'nope'})
    const head = await store.claim('c-1', {from: ['queued']})
    expect(head?.item).toMatchObject({id: b.id, status: 'sending'})
    expect(await store.claim('c-1', {from: ['queued']})).toBeNull()
    const sent = await store.settle('c-1', b.id, {status: 'sent', turn_id: 't-abc'})
    expect(sent).toMatchObject({id: b.id, status: 'sent', sent_at: expect.any(String)})
    expect(onDisk('c-1').items.map((item: {id: string}) => item.id)).toEqual([a.id])
    expect(fixture.events.at(-1)).toMatchObject({type: 'queue.item.sent', data: {conv: 'c-1', turn_id: 't-abc', item: {id: b.id, status: 'sent', text: 'b'}}})
    // Promoting a failed item again (from: failed) clears its reason.
    expect((await store.claim('c-1', {id: a.id, from: ['queued', 'failed']}))?.item).toEqual({...a, status: 'sending'})
  })

  it('keeps the member a queue was given, and refuses another while items are left (409 member_mismatch)', async () => {
    await store.add('c-1', {text: 'a', member: 'developer'})
    expect(onDisk('c-1').member).toBe('developer')
    await expect(store.add('c-1', {text: 'b', member: 'consultant'})).rejects.toMatchObject({code: 'member_mismatch', field: 'member'})
    await store.add('c-1', {text: 'b'})
    expect((await store.claim('c-1', {from: ['queued']}))?.member).toBe('developer')
  })

  it('refuses to touch a queue file it cannot read (409 queue_unreadable), and keeps hand-edited order by position', async () => {
    mkdirSync(fixture.path('queues'), {recursive: true})
    writeFileSync(fixture.path('queues', 'c-1.json'), '{"conv": "c-1", "version": 1, "items": [')
    await expect(store.read('c-1')).rejects.toMatchObject({kind: 'conflict', code: 'queue_unreadable'})
    writeFileSync(fixture.path('queues', 'c-2.json'), JSON.stringify({conv: 'other', version: 1, items: []}))
    await expect(store.add('c-2', {text: 'x'})).rejects.toMatchObject({code: 'queue_unreadable'})
    const item = (id: string, position: number) => ({id, text: id, created_at: '2026-03-01T09:00:00Z', position, status: 'queued'})
    writeFileSync(fixture.path('queues', 'c-3.json'), JSON.stringify({conv: 'c-3', version: 4, items: [item('q-b', 5), item('q-a', 2)]}))
    expect((await store.read('c-3')).items.map((entry) => [entry.id, entry.position])).toEqual([['q-a', 0], ['q-b', 1]])
  })

  it('writes through the project writer: the previous bytes are kept, so a removal can be undone', async () => {
    const a = await store.add('c-1', {text: 'a long brief the operator wrote'})
    const written: string[] = []
    fixture.context.writer.onWrite((write) => void written.push(`${write.path} ${write.reason}`))
    await store.remove('c-1', a.id)
    expect(written).toEqual(['queues/c-1.json queue.remove'])
    const index = readFileSync(fixture.path('snapshots', '2026-03-01', 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    const kept = index.find((record: {reason: string}) => record.reason === 'queue.remove')
    expect(JSON.parse(readFileSync(fixture.path(kept.snapshot), 'utf8')).items[0].text).toBe('a long brief the operator wrote')
  })

  it('takes writes to one conv in turn: concurrent adds all land, each with its own version', async () => {
    await Promise.all(Array.from({length: 20}, (_, n) => store.add('c-1', {text: `t${n}`})))
    const file = await store.read('c-1')
    expect(file.version).toBe(20)
    expect(file.items.map((item) => item.text).sort()).toEqual(Array.from({length: 20}, (_, n) => `t${n}`).sort())
    expect(new Set(fixture.events.map((event) => event.data.version)).size).toBe(20)
  })

  it('recovers at start: items left sending become failed (never sent twice); other files and items stay', async () => {
    const [a, b] = [await store.add('c-1', {text: 'a'}), await store.add('c-1', {text: 'b'})]
    await store.claim('c-1', {from: ['queued']})
    mkdirSync(fixture.path('queues'), {recursive: true})
    writeFileSync(fixture.path('queues', 'broken.json'), 'not json')
    writeFileSync(fixture.path('queues', 'Notes.json'), 'not a queue')
    // A new daemon: a fresh store over the same files.
    const next = createQueueStore(fixture.context)
    expect(await next.recover()).toBe(1)
    expect((await next.read('c-1')).items).toEqual([
      {...a, status: 'failed', failed_reason: INTERRUPTED_REASON},
      b,
    ])
    expect(await next.recover()).toBe(0)
  })
})
