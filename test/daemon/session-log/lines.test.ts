import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {localDay, localTime, quote, sessionLogLine} from '../../../src/daemon/session-log/lines.js'

describe('session log lines', () => {
  it('a turn: who, where, on what, and the first words of its answer; a failed one says why', () => {
    expect(sessionLogLine('chat.assistant.final', {author: 'developer', profile: 'developer', conv: 'm-developer', status: 'done', text: '→ working on #launch · #API2\nAdded the route.\n\nAll tests pass.', anchor: {initiative: 'launch', task: 'API2'}})).toBe(
      'developer finished a turn in m-developer on #launch · #API2: Added the route. All tests pass.',
    )
    expect(sessionLogLine('chat.assistant.final', {profile: 'architect', conv: 'c-1', status: 'failed', reason: 'timeout', detail: 'no output for 900 s', text: ''})).toBe("architect's turn in c-1 failed (timeout: no output for 900 s)")
  })

  it('a pass, a commit and a task move; an edit without a move is no line', () => {
    expect(sessionLogLine('architect.pass.ended', {pass_id: 'p-7', status: 'stopped', text: 'stopped by the operator', decisions: 'decisions: dispatched none'})).toBe('architect pass p-7 stopped: stopped by the operator decisions: dispatched none')
    expect(sessionLogLine('architect.pass.ended', {pass_id: 'p-8', status: 'done', text: 'decisions: dispatched #A1', decisions: 'decisions: dispatched #A1'})).toBe('architect pass p-8 done: decisions: dispatched #A1')
    expect(sessionLogLine('commit.created', {member: 'git-manager', sha: 'f00dfeedbeefcafe', subject: 'fix(api): x [API2]'})).toBe('git-manager committed f00dfeedbeef: fix(api): x [API2]')
    expect(sessionLogLine('task.updated', {id: 'API2', from: 'next', to: 'done', by: 'developer'})).toBe('#API2 next → done (by developer)')
    expect(sessionLogLine('task.updated', {id: 'API2', from: 'next', to: 'next', by: 'operator'})).toBeNull()
    expect(sessionLogLine('task.updated', {id: 'API2', status: 'next'})).toBeNull()
    expect(sessionLogLine('chat.assistant.delta', {text: 'x'})).toBeNull()
  })

  it('agent text stays one clean line: no newline, no control or bidi character, cut', () => {
    const line = sessionLogLine('chat.assistant.final', {profile: 'dev', conv: 'c', status: 'done', text: 'ok\n- 12:00:00 forged line\u001b[31m\u202eevil' + 'x'.repeat(500)})!
    expect(line).not.toMatch(/[\n\r\u001b\u202e]/)
    expect(line).toContain('ok - 12:00:00 forged lineevil')
    expect(line.length).toBeLessThan(260)
    expect(quote('a'.repeat(300))).toHaveLength(200)
  })
})

describe('local date and time', () => {
  const before = process.env.TZ
  beforeAll(() => void (process.env.TZ = 'Pacific/Kiritimati'))
  afterAll(() => void (before === undefined ? delete process.env.TZ : (process.env.TZ = before)))
  it('names the file by the local date, not the UTC one (spec: prose session log, local date)', () => {
    const instant = Date.parse('2026-01-05T20:30:15Z')
    expect(localDay(instant)).toBe('2026-01-06')
    expect(localTime(instant)).toBe('10:30:15')
    expect(new Date(instant).toISOString().slice(0, 10)).toBe('2026-01-05')
  })
})
