import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json, type CliResult} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

let team: ServedTeam
beforeAll(async () => {
  team = await serveTeam([
    {
      id: 'architect',
      replies: [
        {when: 'anchored', say: 'working on #{{task}}'},
        {when: 'break', say: 'partial answer', exit: 3, stderr: 'the model is gone'},
        {when: 'wait', say: 'thinking', hang: true},
      ],
      default: {say: `Hi, turn {{turn}}: {{text}}\n${marker('report', {status: 'done', summary: 'said hi'})}`},
    },
  ])
})
afterAll(async () => {
  await team?.stop()
})

/** Whatever the command printed, the portal token is not in it. */
function noToken(result: CliResult): CliResult {
  expect(result.stdout + result.stderr).not.toContain(team.token)
  return result
}

describe('mesh ask', () => {
  it('prints only the final text in a pipe, markers removed', async () => {
    const result = noToken(await team.mesh(['ask', 'architect', 'hello there']))
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('Hi, turn 1: hello there\n')
    expect(result.stderr).toBe('')
  })

  it('prints {conv, turn_id, member, status, text, turns, requests, cost_usd} with --json, and --conv continues the conversation', async () => {
    const first = json(noToken(await team.mesh(['ask', 'architect', 'one', '--json'])))
    expect(first).toEqual({
      conv: expect.stringMatching(/^c-[0-9a-f]{12}$/),
      turn_id: expect.stringMatching(/^t-/),
      member: 'architect',
      status: 'done',
      text: 'Hi, turn 1: one',
      turns: [{turn_id: first.turn_id, conv: first.conv, member: 'architect', profile: 'architect', depth: 0, status: 'done'}],
      requests: [],
      cost_usd: null,
    })
    const second = json(noToken(await team.mesh(['ask', 'architect', 'two', '--conv', first.conv, '--json'])))
    expect(second).toMatchObject({conv: first.conv, status: 'done', text: 'Hi, turn 2: two'})
    expect(second.turn_id).not.toBe(first.turn_id)
  })

  it('reads the message from stdin with - and passes --task as the turn anchor', async () => {
    const result = noToken(await team.mesh(['ask', 'architect', '-', '--task', 'API1'], {input: 'anchored, please\n'}))
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('working on #API1\n')
  })

  it('exits 1 with the reason when the turn fails', async () => {
    const failed = noToken(await team.mesh(['ask', 'architect', 'break it']))
    expect(failed.code).toBe(1)
    expect(failed.stdout).toBe('')
    expect(failed.errorText).toMatch(/architect's turn failed \(exit\): exited with 3: the model is gone/)
    const asJson = noToken(await team.mesh(['ask', 'architect', 'break it', '--json']))
    expect(asJson.code).toBe(1)
    expect(json(asJson)).toMatchObject({member: 'architect', status: 'failed', reason: 'exit', text: 'partial answer'})
  })

  it('refuses an unknown member and a busy conversation with clear messages, and --timeout stops waiting', async () => {
    const ghost = noToken(await team.mesh(['ask', 'ghost', 'hello']))
    expect(ghost.code).toBe(1)
    expect(ghost.errorText).toMatch(/No team member ghost; `mesh team list` shows the team/)
    expect(json(noToken(await team.mesh(['ask', 'ghost', 'hello', '--json']))).error.code).toBe('member_not_found')

    // A turn that never ends: --timeout gives up waiting, and the conversation stays busy.
    const waiting = noToken(await team.mesh(['ask', 'architect', 'wait for me', '--timeout', '1', '--json']))
    expect(waiting.code).toBe(1)
    const timeout = json(waiting).error
    expect(timeout.code).toBe('ask_timeout')
    const conv = /conversation (c-[0-9a-f]{12})/.exec(timeout.message)?.[1]
    expect(conv).toBeDefined()
    const busy = noToken(await team.mesh(['ask', 'architect', 'hello again', '--conv', conv!]))
    expect(busy.code).toBe(1)
    expect(busy.errorText).toMatch(new RegExp(`Conversation ${conv} is busy: architect is still answering in it.*mesh queue add ${conv}`))
  })

  it('says what a valid member or conversation id looks like, never a raw schema message (issue 21)', async () => {
    const member = await team.mesh(['ask', 'Not A Member', 'hello', '--json'])
    expect([member.code, json(member).error]).toEqual([1, {code: 'invalid_body', field: 'member', message: 'member must be an id: a lowercase letter, then 1 to 31 of a-z, 0-9 and - (e.g. developer); got "Not A Member"'}])
    const conv = await team.mesh(['ask', 'architect', 'hello', '--conv', 'My Chat'])
    expect(conv.code).toBe(1)
    expect(conv.errorText).toContain('conv must be a conversation id: a lowercase letter or digit, then up to 79 of a-z, 0-9, ., _ and - (e.g. c-3f9a0b1c2d3e); got "My Chat"')
    for (const result of [member, conv]) expect(result.stdout + result.stderr).not.toMatch(/must match pattern|\^\[/)
  })

  it('says when no daemon serves the project', async () => {
    const {makeRepo} = await import('../../standard/fixtures.js')
    const repo = makeRepo()
    try {
      const {runCli} = await import('../../support/cli.js')
      const result = await runCli(['ask', 'architect', 'hello'], {cwd: repo.root})
      expect(result.code).toBe(1)
      expect(result.errorText).toMatch(/No daemon serves this project/)
    } finally {
      repo.cleanup()
    }
  })
})

describe('mesh ask at capacity', () => {
  let small: ServedTeam
  beforeAll(async () => {
    small = await serveTeam([{id: 'architect', replies: [], default: {say: 'busy', hang: true}}], ['--max-turns', '1', '--max-waiting', '0'])
  })
  afterAll(async () => {
    await small?.stop()
  })

  it('answers at_capacity with a message and exit 1', async () => {
    const running = await small.call('POST', '/chat/send', {text: 'take the only slot', member: 'architect'})
    expect(running.status).toBe(202)
    const refused = await small.mesh(['ask', 'architect', 'one more'])
    expect(refused.code).toBe(1)
    expect(refused.errorText).toMatch(/The daemon is at capacity .*try again in \d+ s/)
    expect(json(await small.mesh(['ask', 'architect', 'one more', '--json'])).error.code).toBe('at_capacity')
  })
})
