import {describe, expect, it} from 'vitest'
import type {SearchAnswer} from '../../../src/client/registry/search-client.js'
import {formatSearchLines, formatSearchTable} from '../../../src/client/registry/search-format.js'

const answer: SearchAnswer = {
  count: 2,
  ignored_keys: [],
  took_ms: 1.2,
  results: [
    {agent_id: 'painter', display_name: 'Painter', did: 'did:key:z6Mk', verified: true, endpoint: 'https://p.example', online: true, operational: true, card_match: '2/2', live_check: {ok: true, source: 'health', checked_at: '2026-06-20T12:00:00.000Z'}, score: 1.2345,
      invoke: [{skill: 'draw', url: 'https://p.example/v1/draw'}, {skill: 'paint', url: 'https://p.example/v1/paint'}], description: 'Generates images\tfrom text prompts of any length and style', category: 'media.image', tags: ['image']},
    {agent_id: 'raw-id', display_name: 'raw-id', did: null, verified: false, endpoint: null, online: true, operational: null, card_match: null, live_check: null, score: 0.5, invoke: [], description: null, category: null, tags: []},
  ],
}

describe('formatSearchLines', () => {
  it('writes one tab-separated line per result, no header', () => {
    expect(formatSearchLines(answer)).toEqual([
      'painter\tPainter\t1.2345\ttrue\t2/2\thttps://p.example\thttps://p.example/v1/draw https://p.example/v1/paint',
      'raw-id\traw-id\t0.5\tnull\t-\t-\t-',
    ])
  })
})

describe('formatSearchTable', () => {
  it('aligns columns and cuts the description to the terminal width', () => {
    const text = formatSearchTable(answer, {columns: 90})
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^#\s+AGENT\s+SCORE\s+OPERATIONAL\s+CARD MATCH\s+SKILLS\s+DESCRIPTION$/)
    expect(lines[1]).toContain('Painter (painter) ✓')
    expect(lines[1]).toContain('1.234')
    expect(lines[1]).toContain('Generates images fro…')
    expect(lines[1]).toContain('draw, paint')
    expect(lines[1]).toMatch(/…$/)
    expect(lines[2]).toMatch(/^2\s+raw-id\s+0\.500\s+\?\s+-\s+-$/)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(90)
    expect(text).not.toContain('\u001B[')
  })

  it('colours the qualities when asked', () => {
    const text = formatSearchTable(answer, {columns: 200, colour: true})
    expect(text).toContain('\u001B[32myes\u001B[0m')
    expect(text).toContain('\u001B[2m?\u001B[0m')
  })
})
