/**
 * Recovery and stop, in-process (issue 19): a brief cut off by a stop is
 * re-sent once by the next start, and closed (failure, reason said) when a
 * second stop cuts it off again; a waiting turn is withdrawn by a cancel
 * with its final, a merged brief is not (its request is cancelled instead),
 * and a running one is killed.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'
import {writeScriptTeam} from './script-team.js'

let repo: FixtureRepo | undefined
let harness: DaemonHarness | undefined
let events: EventRecorder | undefined
afterEach(async () => {
  events?.stop()
  await harness?.running.stop()
  repo?.cleanup()
  repo = harness = events = undefined
})

/** A daemon on `repo` (kept between starts), its events recorded. */
async function start(limits: {maxTurns?: number} = {}) {
  events?.stop()
  harness = await startHarness({repo, chat: limits})
  events = recordEvents(harness.running.daemon.context.events, repo!.root)
  return harness
}
const call = (method: string, path: string, body?: unknown) => harness!.call(method, path, {auth: true, ...(body === undefined ? {} : {body: JSON.stringify(body)})})

describe('open briefs across restarts', () => {
  it('are re-sent once, then closed as failed when a second stop cuts them off again', async () => {
    repo = makeRepo()
    writeScriptTeam(repo.root, [{id: 'developer', replies: [], default: {say: 'working', hang: true}}])
    await start()
    const brief = await call('POST', '/chat/delegate', {member: 'developer', brief: 'Build it'})
    expect(brief.status).toBe(202)
    await events!.waitFor((event) => event.type === 'chat.turn.started' && event.data.conv === 'm-developer', 'the first turn')
    await harness!.running.stop()

    await start()
    // The start re-sends the brief before this test's recorder listens: read the re-sent turn from the daemon instead.
    await expect.poll(async () => (await call('GET', '/chat/conv/m-developer')).body, {timeout: 20_000, interval: 50}).toMatchObject({live: true, turn_id: expect.any(String)})
    const resent = (await call('GET', '/chat/conv/m-developer')).body
    const row = (await call('GET', '/chat/delegations')).body.open[0]
    expect(row).toMatchObject({request_id: brief.body.request_id, resent_at: expect.any(String)})
    expect((await call('GET', `/chat/turns/${resent.turn_id}`)).body.status).toBe('running')
    await harness!.running.stop()

    await start()
    const ledger = (await call('GET', '/chat/delegations')).body
    expect(ledger.open).toEqual([])
    expect(ledger.closed[0]).toMatchObject({request_id: brief.body.request_id, outcome: 'failure', reason: expect.stringMatching(/re-sent once already, so it is not sent again/)})
    expect(events!.of('chat.turn.started')).toEqual([])
  })
})

describe('POST /chat/turns/<id>/cancel', () => {
  it('withdraws a waiting turn with its final, refuses a merged brief, and kills a running one', async () => {
    repo = makeRepo()
    writeScriptTeam(repo.root, [
      {id: 'architect', replies: [], default: {say: 'thinking', hang: true}},
      {id: 'developer', replies: [], default: {say: 'building', hang: true}},
    ])
    await start({maxTurns: 2})
    const running = await call('POST', '/chat/send', {conv: 'c-a', text: 'one'})
    const brief = await call('POST', '/chat/delegate', {member: 'developer', brief: 'first'})
    const waiting = await call('POST', '/chat/send', {conv: 'c-b', text: 'two'})
    expect(waiting.body.state).toBe('waiting')
    // A second brief to the live session waits, merged, for its next turn.
    const merged = await call('POST', '/chat/delegate', {member: 'developer', brief: 'second'})
    expect(merged.body.state).toBe('waiting')

    const withdrawn = await call('POST', `/chat/turns/${waiting.body.turn_id}/cancel`)
    expect(withdrawn.body).toMatchObject({turn_id: waiting.body.turn_id, conv: 'c-b', status: 'failed', reason: 'cancelled', detail: 'cancelled by the operator before it started'})
    expect(events!.events.find((event) => event.type === 'chat.assistant.final' && event.data.turn_id === waiting.body.turn_id)?.data).toMatchObject({status: 'failed', reason: 'cancelled'})
    expect((await call('GET', '/chat/conv/c-b')).body).toMatchObject({live: false, waiting: 0})
    expect(events!.events.some((event) => event.type === 'chat.idle' && event.data.conv === 'c-b')).toBe(true)

    const refused = await call('POST', `/chat/turns/${merged.body.turn_id}/cancel`)
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('turn_not_cancellable')

    const killed = await call('POST', `/chat/turns/${running.body.turn_id}/cancel`)
    expect(killed.body).toMatchObject({status: 'failed', reason: 'cancelled'})
    // The brief's turn, cancelled, closes the request it answered as failed.
    await call('POST', `/chat/turns/${brief.body.turn_id}/cancel`)
    const closed = await events!.waitFor((event) => event.type === 'delegation.closed' && event.data.request_id === brief.body.request_id, 'the brief closed')
    expect(closed.data).toMatchObject({outcome: 'failure', reason: 'the turn failed (cancelled)'})
  })
})

describe('a daemon that stops', () => {
  it('sends a final for the running turn and for a lone input still waiting', async () => {
    repo = makeRepo()
    writeScriptTeam(repo.root, [{id: 'architect', replies: [], default: {say: 'thinking', hang: true}}])
    await start({maxTurns: 1})
    const running = await call('POST', '/chat/send', {conv: 'c-a', text: 'one'})
    const waiting = await call('POST', '/chat/send', {conv: 'c-b', text: 'two'})
    expect(waiting.body.state).toBe('waiting')
    await events!.waitFor((event) => event.type === 'chat.turn.started' && event.data.turn_id === running.body.turn_id, 'the running turn')
    await harness!.running.stop()
    const finals = events!.of('chat.assistant.final').map((event) => [event.data.turn_id, event.data.reason, event.data.detail])
    expect(finals).toEqual(
      expect.arrayContaining([
        [running.body.turn_id, 'shutdown', 'the daemon stopped; its client was stopped with it'],
        [waiting.body.turn_id, 'shutdown', 'the daemon stopped before it started'],
      ]),
    )
    harness = undefined
  })
})
