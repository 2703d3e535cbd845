/**
 * GET /usage (issue 19, Cost and usage): the finals of the timeline, written
 * by the daemon's own timeline writer under an injected clock, summed per
 * member, conversation and UTC day.
 */
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {TurnUsage} from '../../../../src/daemon/chat/types.js'
import {startHarness, type DaemonHarness} from '../../harness.js'

let harness: DaemonHarness
afterEach(async () => {
  await harness?.close()
})

let now = Date.parse('2026-11-26T10:00:00.000Z')
const usage = (cost: number | null, input: number, output: number): TurnUsage => ({input_tokens: input, output_tokens: output, cache_read_tokens: 100, cache_write_tokens: null, cost_usd: cost, duration_ms: 2_000, tool_calls: 1})

/** A final as turn.ts writes it, at `at`, with `usage` when given. */
function writeFinal(at: string, conv: string, member: string, turnUsage?: TurnUsage) {
  now = Date.parse(at)
  harness.running.daemon.context.timeline.append('chat.assistant.final', {author: member, text: 'done', conv, turn_id: `t-${now}`, member, profile: member, status: 'done', exit_code: 0, ...(turnUsage ? {usage: turnUsage} : {})})
}

const getUsage = (query = '') => harness.call('GET', `/usage${query}`, {auth: true})

describe('GET /usage', () => {
  it('sums the finals of the range per member, conversation and day, exactly, and counts the finals without usage', async () => {
    harness = await startHarness({clock: () => now})
    const {timeline} = harness.running.daemon.context
    writeFinal('2026-11-25T23:59:59.000Z', 'c-old', 'architect', usage(5, 1, 1)) // the day before the range
    writeFinal('2026-11-26T09:00:00.000Z', 'c-1', 'architect', usage(0.1, 1_000, 200))
    timeline.append('chat.assistant.delta', {author: 'architect', text: 'chat.assistant.final "usage": {"cost_usd": 9}', conv: 'c-1', turn_id: 't-x', member: 'architect', seq: 0})
    writeFinal('2026-11-26T09:05:00.000Z', 'c-1', 'architect', usage(0.2, 3_000, 400))
    writeFinal('2026-11-26T12:00:00.000Z', 'c-2', 'developer', usage(0.7, 10_000, 5_000))
    writeFinal('2026-11-27T08:00:00.000Z', 'c-2', 'developer', usage(null, 2_000, 100))
    writeFinal('2026-11-27T08:30:00.000Z', 'c-3', 'consultant')
    writeFinal('2026-11-28T00:00:00.000Z', 'c-1', 'architect', usage(9, 1, 1)) // the first instant after the range
    await timeline.flush()

    const answer = await getUsage('?since=2026-11-26&until=2026-11-27')
    expect(answer.status).toBe(200)
    const {body} = answer
    expect(body).toMatchObject({since: '2026-11-26T00:00:00.000Z', until: '2026-11-28T00:00:00.000Z', warnings: []})
    expect(body.total).toEqual({turns: 5, turns_without_usage: 1, turns_without_cost: 1, input_tokens: 16_000, output_tokens: 5_700, cache_read_tokens: 400, cache_write_tokens: 0, cost_usd: 1, duration_ms: 8_000, tool_calls: 4})
    expect(body.members.map((m: any) => [m.member, m.turns, m.cost_usd, m.input_tokens, m.turns_without_usage, m.turns_without_cost])).toEqual([
      ['architect', 2, 0.3, 4_000, 0, 0],
      ['consultant', 1, 0, 0, 1, 0],
      ['developer', 2, 0.7, 12_000, 0, 1],
    ])
    expect(body.convs.map((c: any) => [c.conv, c.member, c.turns, c.cost_usd])).toEqual([
      ['c-1', 'architect', 2, 0.3],
      ['c-2', 'developer', 2, 0.7],
      ['c-3', 'consultant', 1, 0],
    ])
    expect(body.days.map((d: any) => [d.day, d.turns, d.cost_usd, d.output_tokens])).toEqual([
      ['2026-11-26', 3, 1, 5_600],
      ['2026-11-27', 2, 0, 100],
    ])

    // Timestamps cut inside a day: only 09:00 ≤ ts < 09:05 of the 26th.
    const window = (await getUsage('?since=2026-11-26T09:00:00Z&until=2026-11-26T10:05:00%2B01:00')).body
    expect([window.total.turns, window.total.cost_usd]).toEqual([1, 0.1])
    // The default range is the last seven days up to now: the clock stands at 00:00 of the 28th, so the 21st to the 27th.
    expect((await getUsage()).body).toMatchObject({since: '2026-11-21T00:00:00.000Z', until: '2026-11-28T00:00:00.000Z', total: {turns: 6, cost_usd: 6}})
  })

  it('answers a bad range with a 400 naming the parameter, and only to the portal token', async () => {
    harness = await startHarness({clock: () => now})
    expect((await getUsage('?since=last-week')).body.error).toMatchObject({code: 'invalid_query', field: 'since', message: expect.stringMatching(/not a date or a timestamp/)})
    expect((await getUsage('?since=2026-11-27&until=2026-11-20')).body.error).toMatchObject({code: 'invalid_query', field: 'since'})
    expect((await getUsage('?until=2026-13-01')).body.error).toMatchObject({code: 'invalid_query', field: 'until'})
    expect((await getUsage('?since=2026-11-01&since=2026-11-02')).status).toBe(400)
    const anonymous = await harness.call('GET', '/usage')
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'portal_token_required'])
  })

  it('does not read a timeline file that is a link, and says so', async () => {
    harness = await startHarness({clock: () => now})
    const outside = join(harness.repo.root, 'elsewhere.jsonl')
    writeFileSync(outside, JSON.stringify({ts: '2026-11-25T10:00:00.000Z', type: 'chat.assistant.final', author: 'x', text: '', conv: 'c-9', member: 'x', usage: {cost_usd: 100}}) + '\n')
    mkdirSync(join(harness.repo.root, '.mesh', 'timeline'), {recursive: true})
    symlinkSync(outside, join(harness.repo.root, '.mesh', 'timeline', '2026-11-25.jsonl'))
    const {body} = await getUsage('?since=2026-11-25&until=2026-11-25')
    expect(body.total.turns).toBe(0)
    expect(body.warnings).toEqual(['.mesh/timeline/2026-11-25.jsonl was not read: it is a symbolic link'])
  })
})
