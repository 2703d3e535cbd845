/**
 * `mesh chat list` and `mesh chat show <conv>` (issue 19, See and stop): the
 * conversations the daemon knows, and one read back from the timeline —
 * inputs, finals (a failed one with its reason), delegations opened and
 * answered — as text in a pipe and NDJSON with --json. Through the built
 * binary against `mesh serve`.
 */
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

const ndjson = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line))

describe('mesh chat', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([
      {
        id: 'architect',
        replies: [
          {when: 'answered delegation', say: 'The developer is done.'},
          {when: 'break', say: 'half', exit: 2, stderr: 'it broke'},
          {when: 'hand', say: `Handing over.\n${marker('delegate', {member: 'developer', brief: 'Fix the footer'})}`},
        ],
        default: {say: 'Hello.\nSecond line.'},
      },
      {id: 'developer', replies: [], default: {say: `Fixed.\n${marker('report', {status: 'done', summary: 'footer fixed'})}`}},
    ])
    for (const text of ['hello', 'break it', 'hand it on']) await team.mesh(['ask', 'architect', '--conv', 'c-read', text])
  })
  afterAll(async () => {
    await team?.stop()
  })

  it('shows a conversation read back from the timeline, in order, as text', async () => {
    const shown = await team.mesh(['chat', 'show', 'c-read'])
    expect(shown.code, shown.stderr).toBe(0)
    const lines = shown.stdout.split('\n')
    expect(lines[0]).toBe('c-read · architect · 4 turn(s), 1 failed')
    const body = lines.slice(1).map((line) => line.replace(/^\d\d:\d\d:\d\d {2}/, '').trimEnd()).join('\n')
    expect(body).toContain('operator › hello\n▶ architect (script architect) · t-')
    expect(body).toContain('architect › Hello.\n         Second line.')
    expect(body).toContain("✗ architect's turn failed (exit): exited with 2: it broke\n         half")
    expect(body).toMatch(/→ architect → developer: Fix the footer \(dlg_[0-9a-f]{12}\)/)
    expect(body).toMatch(/← developer answered architect: success \(dlg_[0-9a-f]{12}\)/)
    expect(body).toContain('architect › The developer is done.')
    expect(shown.stdout).not.toContain('mesh-')
  })

  it('prints NDJSON with --json: the thread line, then one line per entry', async () => {
    const shown = await team.mesh(['chat', 'show', 'c-read', '--json'])
    expect(shown.code, shown.stderr).toBe(0)
    const [head, ...entries] = ndjson(shown.stdout)
    expect(head).toMatchObject({type: 'thread', conv: 'c-read', member: 'architect', live: false, turns: {done: 3, failed: 1}, truncated: false})
    expect(entries.filter((entry) => entry.type === 'chat.assistant.final').map((entry) => entry.status)).toEqual(['done', 'failed', 'done', 'done'])
    expect(entries.every((entry) => typeof entry.ts === 'string' && entry.src === undefined)).toBe(true)
    expect(entries.some((entry) => entry.type === 'chat.assistant.delta')).toBe(false)
    const last = ndjson((await team.mesh(['chat', 'show', 'c-read', '--json', '--limit', '2'])).stdout)
    expect(last[0].truncated).toBe(true)
    expect(last).toHaveLength(3)
  })

  it('lists conversations, newest first, and refuses an unknown one', async () => {
    const listed = await team.mesh(['chat', 'list'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/^CONV +MEMBER +TURNS +STATE +LAST ENDED$/m)
    expect(listed.stdout).toMatch(/^c-read +architect +3 +idle +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m)
    expect(listed.stdout).toMatch(/^m-developer +developer +1 +idle /m)
    const rows = ndjson((await team.mesh(['chat', 'list', '--json'])).stdout)
    expect(rows.map((row) => row.conv).sort()).toEqual(['c-read', 'm-developer'])
    const unknown = await team.mesh(['chat', 'show', 'c-nothing', '--json'])
    expect(unknown.code).toBe(1)
    expect(ndjson(unknown.stdout)).toEqual([{error: expect.objectContaining({code: 'conv_not_found'})}])
  })
})

describe('mesh chat show, a turn still running', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([{id: 'architect', replies: [{when: 'hang on', say: 'got halfway\nstill going', hang: true}], default: {say: 'Hello.'}}])
  })
  afterAll(async () => {
    await team?.stop()
  })

  it('shows what a running turn printed so far (a final holds it once the turn ends)', async () => {
    const sent = await team.call('POST', '/chat/send', {text: 'hang on', member: 'architect', conv: 'c-hung'})
    expect(sent.status).toBe(202)
    await vi.waitFor(async () => {
      const running = (await team.call('GET', '/chat/conv/c-hung/thread')).body
      expect(running).toMatchObject({live: true})
      expect(running.entries.at(-1)).toMatchObject({type: 'chat.assistant.printed', turn_id: sent.body.turn_id, text: 'got halfway\nstill going'})
    }, {timeout: 20_000, interval: 100})
    const shown = await team.mesh(['chat', 'show', 'c-hung'])
    expect(shown.stdout).toMatch(/architect … got halfway\n {9}still going\n/)

    expect((await team.call('POST', `/chat/turns/${sent.body.turn_id}/cancel`)).status).toBe(200)
    const entries = ndjson((await team.mesh(['chat', 'show', 'c-hung', '--json'])).stdout).slice(1)
    expect(entries.map((entry) => entry.type)).not.toContain('chat.assistant.printed')
    expect(entries.find((entry) => entry.type === 'chat.assistant.final')).toMatchObject({status: 'failed', reason: 'cancelled', text: 'got halfway\nstill going'})
    expect(entries.find((entry) => entry.type === 'chat.assistant.final').printed).toBeUndefined()
  })
})
