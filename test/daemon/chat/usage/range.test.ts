import {describe, expect, it} from 'vitest'
import {daysOf, parseUsageRange} from '../../../../src/daemon/chat/usage/range.js'

const NOW = Date.parse('2026-11-27T15:30:00.000Z')
const iso = (range: {since: number; until: number}) => ({since: new Date(range.since).toISOString(), until: new Date(range.until).toISOString()})
const refusal = (query: {since?: string; until?: string}) => {
  try {
    parseUsageRange(query, NOW)
  } catch (error) {
    return error as {code: string; field?: string; message: string}
  }
  throw new Error('not refused')
}

describe('the range of GET /usage', () => {
  it('is the last seven UTC days up to now by default', () => {
    expect(iso(parseUsageRange({}, NOW))).toEqual({since: '2026-11-21T00:00:00.000Z', until: '2026-11-27T15:30:00.000Z'})
  })

  it('reads dates as whole UTC days: since from 00:00, until through 24:00 of its day', () => {
    expect(iso(parseUsageRange({since: '2026-11-20', until: '2026-11-22'}, NOW))).toEqual({since: '2026-11-20T00:00:00.000Z', until: '2026-11-23T00:00:00.000Z'})
    expect(iso(parseUsageRange({since: '2026-11-27', until: '2026-11-27'}, NOW))).toEqual({since: '2026-11-27T00:00:00.000Z', until: '2026-11-28T00:00:00.000Z'})
    // An --until alone: the seven days that end with it.
    expect(iso(parseUsageRange({until: '2026-11-10'}, NOW))).toEqual({since: '2026-11-04T00:00:00.000Z', until: '2026-11-11T00:00:00.000Z'})
  })

  it('reads timestamps with their offset as instants', () => {
    expect(iso(parseUsageRange({since: '2026-11-27T08:00:00+02:00', until: '2026-11-27T10:15Z'}, NOW))).toEqual({since: '2026-11-27T06:00:00.000Z', until: '2026-11-27T10:15:00.000Z'})
    expect(iso(parseUsageRange({since: '2026-11-27T08:00:00.123456Z'}, NOW)).since).toBe('2026-11-27T08:00:00.123Z')
  })

  it.each([
    [{since: 'yesterday'}, 'since', /not a date or a timestamp/],
    [{since: '2026-02-30'}, 'since', /not a calendar day/],
    [{until: '2026-11-27T08:00:00'}, 'until', /not a date or a timestamp/],
    [{until: '2026-11-27T25:00:00Z'}, 'until', /not a real instant/],
    [{since: '2026-11-27', until: '2026-11-26'}, 'since', /is not before until/],
    [{since: '2024-01-01', until: '2026-01-01'}, 'since', /longer than 366 days/],
  ])('refuses %j with a 400 naming the parameter', (query, field, message) => {
    expect(refusal(query)).toMatchObject({code: 'invalid_query', field, message: expect.stringMatching(message)})
  })

  it('names the days whose timeline files hold it', () => {
    expect(daysOf(parseUsageRange({since: '2026-11-25T23:00:00Z', until: '2026-11-27T00:00:00Z'}, NOW))).toEqual(['2026-11-25', '2026-11-26'])
  })
})
