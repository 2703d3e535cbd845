import {readFileSync, readdirSync} from 'node:fs'
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

async function start(members: Parameters<typeof writeScriptTeam>[1], options: Parameters<typeof startHarness>[0] = {}) {
  harness = await startHarness(options)
  writeScriptTeam(harness.repo.root, members)
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
}

const send = (body: Record<string, unknown>) => harness.call('POST', '/chat/send', {auth: true, body: JSON.stringify(body)})
const finalOf = (turn: string) => events.waitFor((event) => event.type === 'chat.assistant.final' && event.data.turn_id === turn, `the final of ${turn}`)
const timelineLines = () => {
  const dir = join(harness.repo.root, '.mesh', 'timeline')
  return readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
}

describe('a turn through the script client', () => {
  it('streams each line as a delta, ends with a final without its markers, and writes both to the timeline', async () => {
    await start([{id: 'architect', replies: [{say: `→ working on #I1 · #T1\nhello {{text}}\n${marker('report', {status: 'done', summary: 'x'})}`}]}])
    const sent = await send({text: 'world'})
    expect(sent.status).toBe(202)
    expect(sent.body).toMatchObject({member: 'architect', conv: expect.stringMatching(/^c-[0-9a-f]{12}$/), turn_id: expect.stringMatching(/^t-/)})
    const final = await finalOf(sent.body.turn_id)
    expect(final.data).toMatchObject({status: 'done', member: 'architect', profile: 'architect', text: '→ working on #I1 · #T1\nhello world', anchor: {initiative: 'I1', task: 'T1'}})
    const deltas = events.of('chat.assistant.delta').filter((event) => event.data.turn_id === sent.body.turn_id)
    expect(deltas.map((event) => event.data.text).slice(0, 2)).toEqual(['→ working on #I1 · #T1', 'hello world'])
    await harness.running.daemon.context.timeline.flush()
    const types = timelineLines().filter((line) => line.conv === sent.body.conv).map((line) => line.type)
    expect(types).toEqual(expect.arrayContaining(['chat.user', 'chat.turn.started', 'chat.assistant.delta', 'chat.assistant.final']))
    const turn = await harness.call('GET', `/chat/turns/${sent.body.turn_id}`, {auth: true})
    expect(turn.body).toMatchObject({status: 'done', text: '→ working on #I1 · #T1\nhello world'})
  })

  it('records a client that exits non-zero, is killed, hangs past the timeout or prints garbage as a failed or cleaned turn, and the conv takes the next turn', async () => {
    await start(
      [
        {
          id: 'architect',
          replies: [
            {when: 'exit', say: 'partial', exit: 3, stderr: 'boom'},
            {when: 'crash', say: 'before the crash', crash: true},
            {when: 'hang', say: 'thinking', hang: true},
            {when: 'garbage', say: 'after garbage', garbage: true},
          ],
          default: {say: 'fine'},
        },
      ],
      {chat: {turnTimeoutMs: 1500}},
    )
    const conv = 'c-failures'
    const expectations: Array<[string, Record<string, unknown>]> = [
      ['exit', {status: 'failed', reason: 'exit', exit_code: 3}],
      ['crash', {status: 'failed', reason: 'killed'}],
      ['hang', {status: 'failed', reason: 'timeout'}],
      ['garbage', {status: 'done'}],
      ['after all that', {status: 'done', text: 'fine'}],
    ]
    for (const [text, expected] of expectations) {
      const sent = await send({text, conv})
      expect(sent.status).toBe(202)
      const final = await finalOf(sent.body.turn_id)
      expect(final.data).toMatchObject(expected)
      if (text === 'garbage') {
        expect(final.data.text).toContain('after garbage')
        expect(final.data.text).not.toMatch(/[\u0000-\u0008\u001b]/)
      }
    }
    const view = await harness.call('GET', `/chat/conv/${conv}`, {auth: true})
    expect(view.body).toMatchObject({conv, live: false, waiting: 0, turns: 2})
    // However each turn ended, its private folder (the copy of the script) went with it.
    expect(readdirSync(join(harness.repo.root, '.mesh', '.runtime', 'chat')).filter((name) => name.startsWith('private-'))).toEqual([])
  })

  it('refuses a message to a busy conversation, and new turns at capacity with 429', async () => {
    await start([{id: 'architect', replies: [{say: 'slow', hang: true}]}], {chat: {maxTurns: 1, maxWaiting: 1, turnTimeoutMs: 60_000}})
    const first = await send({text: 'one', conv: 'c-one'})
    expect(first.body.state).toBe('running')
    const busy = await send({text: 'again', conv: 'c-one'})
    expect(busy.status).toBe(409)
    expect(busy.body.error.code).toBe('conv_busy')
    const second = await send({text: 'two', conv: 'c-two'})
    expect(second.body.state).toBe('waiting')
    const third = await send({text: 'three', conv: 'c-three'})
    expect(third.status).toBe(429)
    expect(third.body.error.code).toBe('at_capacity')
  })

  it('tells a first turn its prompt, context slice and catalog, and an only member that the catalog is empty', async () => {
    await start([
      {id: 'architect', prompt: 'You are the ARCHITECT-PROMPT. More text.', context: ['overview'], replies: [{say: '---', echo_prompt: true}]},
      {id: 'developer', title: 'Developer', prompt: 'You write the code. Then more.', replies: [{say: 'ok'}]},
    ])
    const sent = await send({text: 'hi'})
    const final = await finalOf(sent.body.turn_id)
    expect(final.data.text).toContain('You are the ARCHITECT-PROMPT.')
    expect(final.data.text).toContain('### overview')
    expect(final.data.text).not.toContain('### stack')
    expect(final.data.text).toContain('- `developer` — Developer: You write the code.')
    expect(final.data.text).not.toContain('Then more')
    expect(final.data.text).toMatch(/---\s+hi$/)
    const started = events.of('chat.turn.started').find((event) => event.data.turn_id === sent.body.turn_id)
    expect(started?.data).toMatchObject({client: 'script', model: 'architect', resumed: false})

    await harness.call('DELETE', '/team/developer', {auth: true})
    const alone = await send({text: 'again', conv: 'c-alone'})
    expect((await finalOf(alone.body.turn_id)).data.text).toContain('The catalog is empty')
  })
  it('runs the next turn only with a teammate’s profile after a become marker, and says so in the thread', async () => {
    await start([
      {id: 'architect', replies: [{when: 'review', say: `Let the consultant look.\n${marker('become', {member: 'consultant'})}`}, {when: 'who', say: 'architect here', echo_prompt: true}]},
      {id: 'consultant', prompt: 'You are the CONSULTANT-PROFILE.', replies: [{say: 'consultant script is never run'}]},
    ])
    const conv = 'c-become'
    const first = await send({conv, text: 'review this'})
    expect((await finalOf(first.body.turn_id)).data.text).toBe('Let the consultant look.')
    const announced = await events.waitFor((event) => event.type === 'chat.become' && event.data.conv === conv, 'chat.become')
    expect(announced.data).toMatchObject({author: 'architect', profile: 'consultant', text: 'architect becomes consultant for the next turn'})
    const second = await send({conv, text: 'who are you'})
    const adopted = await finalOf(second.body.turn_id)
    // The architect's client and script ran, told to act as the consultant for this turn.
    expect(adopted.data).toMatchObject({profile: 'consultant', member: 'architect', author: 'consultant'})
    expect(adopted.data.text).toContain('For this turn only you act as consultant')
    expect(adopted.data.text).toContain('You are the CONSULTANT-PROFILE.')
    const third = await send({conv, text: 'who now'})
    expect((await finalOf(third.body.turn_id)).data.profile).toBe('architect')
  })
  it('dispatches a dispatchable task to the architect, and refuses while the context tree is over budget', async () => {
    await start([{id: 'architect', replies: [{say: 'on it'}]}])
    const dispatch = (body: Record<string, unknown>) => harness.call('POST', '/chat/dispatch', {auth: true, body: JSON.stringify(body)})
    const sent = await dispatch({task: 'API1'})
    expect(sent.status).toBe(202)
    expect(sent.body).toMatchObject({member: 'architect', anchor: {task: 'API1'}})
    const user = await events.waitFor((event) => event.type === 'chat.user' && event.data.turn_id === sent.body.turn_id)
    expect(user.data).toMatchObject({text: 'Dispatch #API1: First task', origin: 'dispatch'})
    expect((await dispatch({task: 'API0'})).body.error.code).toBe('task_not_dispatchable')
    expect((await dispatch({task: 'API9'})).body.error.code).toBe('task_not_found')
    expect((await dispatch({})).status).toBe(400)

    harness.repo.write('.mesh/context/decisions/2026-01-01-big.md', `---\ntitle: Big\nupdated: 2026-01-01\n---\n${'word '.repeat(3100)}\n`)
    const refused = await dispatch({text: 'plan'})
    expect([refused.status, refused.body.error.code]).toEqual([409, 'context_over_budget'])
    // Another member is dispatched anyway: only the architect's dispatch is refused (spec v14).
    expect((await dispatch({text: 'plan', member: 'architect-two'})).body.error.code).toBe('member_not_found')
  })
})
