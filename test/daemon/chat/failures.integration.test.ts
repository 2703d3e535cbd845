/**
 * Issue bar: a turn's CLI process that is killed, hangs or prints garbage
 * leaves the conversation, the queue and the ledger consistent. The
 * architect delegates to a worker whose turn goes wrong while an item waits
 * in the architect's queue; afterwards no request is left open, the
 * architect was woken, no conversation is live, and the queued item went out.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'
import {marker, writeScriptTeam} from './script-team.js'

let harness: DaemonHarness
let events: EventRecorder
afterEach(async () => {
  events?.stop()
  await harness?.close()
})

const FAILURES = {
  killed: {reply: {say: 'half an answer', crash: true}, final: {status: 'failed', reason: 'killed'}, outcome: 'failure'},
  hangs: {reply: {say: 'thinking', hang: true}, final: {status: 'failed', reason: 'timeout'}, outcome: 'failure'},
  garbage: {reply: {say: '```mesh-report\n{"status": "done", "for": [\n', garbage: true}, final: {status: 'done'}, outcome: 'unreported'},
} as const

describe.each(Object.entries(FAILURES))('a worker turn that %s', (name, failure) => {
  it('leaves no open request, wakes the requester, and the queue sends its item', async () => {
    harness = await startHarness({chat: {turnTimeoutMs: 1500}})
    writeScriptTeam(harness.repo.root, [
      {id: 'architect', replies: [{when: '^go', say: `Handing over.\n${marker('delegate', {member: 'worker', brief: name})}`}], default: {say: 'noted'}},
      {id: 'worker', replies: [{when: name, ...failure.reply}], default: {say: 'fine'}},
    ])
    events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
    const call = (method: string, path: string, body?: unknown) => harness.call(method, path, {auth: true, ...(body === undefined ? {} : {body: JSON.stringify(body)})})

    const sent = await call('POST', '/chat/send', {conv: 'c-work', text: 'go'})
    expect(sent.status).toBe(202)
    const opened = await events.waitFor((event) => event.type === 'delegation.opened', 'delegation.opened')
    // While the architect waits on its request, the queued item stays queued.
    const queued = await call('POST', '/chat/conv/c-work/queue', {text: 'after the worker'})
    expect(queued.status).toBe(201)

    const workerFinal = await events.waitFor((event) => event.type === 'chat.assistant.final' && event.data.conv === 'm-worker', 'the worker final')
    expect(workerFinal.data).toMatchObject(failure.final)
    if (name === 'garbage') expect(workerFinal.data.text).not.toMatch(/[\u0000-\u0008\u001b]/)

    const closed = await events.waitFor((event) => event.type === 'delegation.closed' && event.data.request_id === opened.data.request_id, 'delegation.closed')
    expect(closed.data.outcome).toBe(failure.outcome)
    const wake = await events.waitFor((event) => event.type === 'chat.user' && event.data.conv === 'c-work' && event.data.origin === 'wake', 'the wake of the architect')
    expect(wake.data.text).not.toMatch(/^\s*[{[]/)
    const queueSent = await events.waitFor((event) => event.type === 'queue.item.sent' && event.data.conv === 'c-work', 'the queued item sent')
    // Not before: the architect was coordinating until the request closed and its wake turn ended.
    expect(events.events.indexOf(queueSent)).toBeGreaterThan(events.events.indexOf(closed))
    const queuedTurn = await events.waitFor((event) => event.type === 'chat.user' && event.data.conv === 'c-work' && event.data.text === 'after the worker', 'the queued item as a turn')
    await events.waitFor((event) => event.type === 'chat.assistant.final' && event.data.turn_id === queuedTurn.data.turn_id, 'the final of the queued turn')

    const ledger = (await call('GET', '/chat/delegations')).body
    expect(ledger.open).toEqual([])
    expect(ledger.closed).toEqual([expect.objectContaining({request_id: opened.data.request_id, outcome: failure.outcome})])
    const saved = JSON.parse(readFileSync(join(harness.repo.root, '.mesh', '.runtime', 'chat', 'ledger.json'), 'utf8'))
    expect(JSON.stringify(saved)).not.toContain('"status":"open"')
    for (const conv of ['c-work', 'm-worker']) expect((await call('GET', `/chat/conv/${conv}`)).body).toMatchObject({live: false, waiting: 0})
    expect((await call('GET', '/chat/conv/c-work/queue')).body.items).toEqual([])
    // The worker's session takes a new brief normally afterwards.
    const again = await call('POST', '/chat/send', {conv: 'm-worker', member: 'worker', text: 'anything'})
    expect(again.status).toBe(202)
    expect((await events.waitFor((event) => event.type === 'chat.assistant.final' && event.data.turn_id === again.body.turn_id, 'a later worker turn')).data).toMatchObject({status: 'done', text: 'fine'})
  })
})
