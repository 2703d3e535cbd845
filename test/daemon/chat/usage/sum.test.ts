import {describe, expect, it} from 'vitest'
import {finalOfLine} from '../../../../src/daemon/chat/usage/read.js'
import {createUsageSums, usageOf} from '../../../../src/daemon/chat/usage/sum.js'

const usage = (cost: number | null, tokens = 10) => ({input_tokens: tokens, output_tokens: tokens * 2, cache_read_tokens: 1, cache_write_tokens: null, cost_usd: cost, duration_ms: 1000, tool_calls: 2})

describe('usage sums', () => {
  it('add per member, conversation and day exactly, and count turns of unknown usage or cost', () => {
    const sums = createUsageSums()
    sums.add({ts: '2026-11-26T10:00:00.000Z', conv: 'c-1', member: 'architect', usage: usage(0.1)})
    sums.add({ts: '2026-11-26T11:00:00.000Z', conv: 'c-1', member: 'architect', usage: usage(0.2)})
    sums.add({ts: '2026-11-27T09:00:00.000Z', conv: 'c-2', member: 'developer', usage: usage(null, 5)})
    sums.add({ts: '2026-11-27T09:30:00.000Z', conv: 'c-2', member: 'developer', usage: null})
    const result = sums.sums()
    // 0.1 + 0.2 in floating point is 0.30000000000000004; the sums are exact.
    expect(result.total).toEqual({turns: 4, turns_without_usage: 1, turns_without_cost: 1, input_tokens: 25, output_tokens: 50, cache_read_tokens: 3, cache_write_tokens: 0, cost_usd: 0.3, duration_ms: 3000, tool_calls: 6})
    expect(result.members.map((m) => [m.member, m.turns, m.cost_usd, m.turns_without_usage])).toEqual([
      ['architect', 2, 0.3, 0],
      ['developer', 2, 0, 1],
    ])
    expect(result.convs.map((c) => [c.conv, c.member, c.input_tokens])).toEqual([
      ['c-1', 'architect', 20],
      ['c-2', 'developer', 5],
    ])
    expect(result.days.map((d) => [d.day, d.turns, d.cost_usd])).toEqual([
      ['2026-11-26', 2, 0.3],
      ['2026-11-27', 2, 0],
    ])
  })

  it('reads a field that is not a count as not reported', () => {
    expect(usageOf({input_tokens: -1, output_tokens: '5', cost_usd: Number.NaN, duration_ms: 'x', tool_calls: 3})).toEqual({input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, cost_usd: null, duration_ms: 0, tool_calls: 3})
    expect(usageOf('lots')).toBeNull()
  })

  it('takes only final lines of the timeline', () => {
    expect(finalOfLine('{"ts":"2026-11-27T09:00:00.000Z","type":"chat.assistant.delta","author":"a","text":"chat.assistant.final","conv":"c","member":"m","seq":0}')).toBeNull()
    expect(finalOfLine('{"ts":"2026-11-27T09:00:00.000Z","type":"chat.assistant.final","author":"a","text":"","conv":"c","member":"m"}')).toEqual({ts: '2026-11-27T09:00:00.000Z', conv: 'c', member: 'm', usage: null})
    expect(finalOfLine('{"type":"chat.assistant.final" broken')).toBeNull()
  })
})
