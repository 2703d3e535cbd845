import {afterEach, describe, expect, it} from 'vitest'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {recordEvents, type EventRecorder} from '../../watch/recorder.js'
import {marker, writeScriptTeam, type ScriptMember} from '../script-team.js'

let harness: DaemonHarness
let events: EventRecorder
afterEach(async () => {
  events?.stop()
  await harness?.close()
})

/** A report block whose `for` is the request ids the daemon gave the turn. */
const reportFor = (data: Record<string, unknown>) => '```mesh-report\n' + JSON.stringify({...data, for: '@@'}).replace('"@@"', '{{request_ids}}') + '\n```'

const TEAM: ScriptMember[] = [
  {
    id: 'architect',
    replies: [
      {when: 'answered delegation', say: 'Thanks, all done.'},
      {when: 'Delegation refused', say: 'Then I do it myself.'},
      {when: 'myself', say: `Looping.\n${marker('delegate', {member: 'architect', brief: 'do it'})}`},
      {when: 'plan', say: `Delegating.\n${marker('delegate', {member: 'developer', brief: 'build the login route'})}`},
    ],
    default: {say: 'Hm.'},
  },
  {
    id: 'developer',
    replies: [{when: 'answered delegation', say: 'Noted.'}],
    default: {say: `Built it.\n${reportFor({status: 'done', summary: 'Login route built', files: ['src/api/login.ts'], commit: null})}`},
  },
  {id: 'git-manager', replies: [], default: {say: `Committed.\n${marker('report', {status: 'done', summary: 'One commit', commit: 'abc1234'})}`}},
]

async function start() {
  harness = await startHarness()
  writeScriptTeam(harness.repo.root, TEAM)
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
}

const send = (body: Record<string, unknown>) => harness.call('POST', '/chat/send', {auth: true, body: JSON.stringify(body)})
const finalIn = (conv: string, text: string) => events.waitFor((e) => e.type === 'chat.assistant.final' && e.data.conv === conv && e.data.text === text, `the final "${text}" in ${conv}`)
const userIn = (conv: string, match: (text: string) => boolean) => events.of('chat.user').find((e) => e.data.conv === conv && match(e.data.text))

describe('delegation through the daemon and the script client', () => {
  it('runs architect → developer → git-manager: briefs, reports by request id, the commit rule and every wake', async () => {
    await start()
    const sent = await send({text: 'plan the login', member: 'architect'})
    expect(sent.status).toBe(202)
    const chat = sent.body.conv

    // The architect is woken by the developer's report; the developer by the git-manager's.
    await finalIn(chat, 'Thanks, all done.')
    await finalIn('m-developer', 'Noted.')
    const opened = events.of('delegation.opened').map((e) => e.data)
    expect(opened).toEqual([
      expect.objectContaining({member: 'developer', requester: {conv: chat, member: 'architect'}, chain: ['architect'], depth: 1, reused: false}),
      expect.objectContaining({member: 'git-manager', requester: {conv: 'm-developer', member: 'developer'}, chain: ['architect', 'developer'], depth: 2}),
    ])
    const closed = events.of('delegation.closed').map((e) => e.data)
    expect(closed).toEqual([expect.objectContaining({request_id: opened[0].request_id, outcome: 'success', member: 'developer'}), expect.objectContaining({request_id: opened[1].request_id, outcome: 'success', member: 'git-manager'})])

    // What each turn was told: the brief with its header, the report as sentences.
    expect(userIn('m-developer', (text) => text.includes(`Delegation ${opened[0].request_id} from architect`) && text.includes('build the login route'))).toBeDefined()
    const wake = userIn(chat, (text) => text.includes(`developer answered delegation ${opened[0].request_id}: success.`))
    expect(wake?.data).toMatchObject({author: 'developer', origin: 'wake'})
    expect(wake?.data.text).toContain('Files: src/api/login.ts')
    expect(wake?.data.text).not.toContain('{')
    expect(userIn('m-git-manager', (text) => text.includes('- src/api/login.ts'))).toBeDefined()

    const ledger = await harness.call('GET', '/chat/delegations', {auth: true})
    expect(ledger.body.open).toEqual([])
    expect(ledger.body.closed.map((row: any) => row.member)).toEqual(['git-manager', 'developer'])
    expect(ledger.body.closed[1]).toMatchObject({summary: 'Login route built', files: ['src/api/login.ts'], commit: null})
  })

  it('tells a refused brief back to the agent once, which then goes on', async () => {
    await start()
    const sent = await send({text: 'do it yourself: myself', member: 'architect'})
    await finalIn(sent.body.conv, 'Then I do it myself.')
    expect(events.of('delegation.refused').map((e) => e.data)).toEqual([expect.objectContaining({code: 'delegation-reentry', from_conv: sent.body.conv, member: 'architect'})])
    expect(userIn(sent.body.conv, (text) => text.startsWith('Delegation refused: delegation-reentry (to architect).'))?.data.author).toBe('daemon')
  })

  it("takes the operator's brief on POST /chat/delegate and closes it on the member's report, waking no one", async () => {
    await start()
    const res = await harness.call('POST', '/chat/delegate', {auth: true, body: JSON.stringify({member: 'developer', brief: 'tidy the tests'})})
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({conv: 'm-developer', member: 'developer', reused: false, open_requests: 1, depth: 0})
    const closed = await events.waitFor((e) => e.type === 'delegation.closed' && e.data.request_id === res.body.request_id, 'the close of the brief')
    expect(closed.data).toMatchObject({outcome: 'success', requester: {conv: null, member: 'operator'}})
    // The git-manager still commits what the developer left uncommitted, on the developer's behalf.
    await finalIn('m-developer', 'Noted.')
    expect(events.of('chat.user').filter((e) => e.data.origin === 'wake' && e.data.conv !== 'm-developer')).toEqual([])
  })
})
