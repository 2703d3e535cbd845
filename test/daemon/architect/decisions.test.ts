/**
 * The one `decisions:` line of a pass (issue 20; spec: States and
 * transitions — drafts skipped in a pass are counted in it).
 */
import {describe, expect, it} from 'vitest'
import {DECISIONS_MAX_CHARS} from '../../../src/daemon/architect/constants.js'
import {decisionsLine, findDecisionsLine, type DecisionFacts} from '../../../src/daemon/architect/decisions.js'

const facts = (over: Partial<DecisionFacts> = {}): DecisionFacts => ({status: 'done', offered: ['API1', 'API3', 'API4'], drafts: ['API2'], briefs: [], refused: [], architectLine: null, ...over})

describe('findDecisionsLine', () => {
  it('takes the last line that starts with decisions:, with its markdown dressing dropped', () => {
    expect(findDecisionsLine('Done.\n**Decisions:** dispatched API1\nmore')).toBe('decisions: dispatched API1')
    expect(findDecisionsLine('- decisions: a\n> `decisions:   b  c`')).toBe('decisions: b c')
    expect(findDecisionsLine('no line here\nmy decisions: are mine')).toBeNull()
    expect(findDecisionsLine('decisions:   ')).toBeNull()
  })
})

describe('decisionsLine', () => {
  it('is written by the daemon from what happened: dispatched per task, deferred with why, drafts counted', () => {
    const line = decisionsLine(facts({briefs: [{request_id: 'dlg_1', member: 'developer', task: 'API1'}, {request_id: 'dlg_2', member: 'tester', task: 'API1'}, {request_id: 'dlg_3', member: 'deployer', task: null}], refused: [{member: 'consultant', task: 'API4', code: 'delegation-fan-out'}]}))
    expect(line).toBe('decisions: dispatched 2: API1 → developer, tester, (no task) → deployer; deferred 2: API3 (not briefed in this pass), API4 (brief to consultant refused: delegation-fan-out); drafts skipped 1: API2 (only the operator promotes a draft)')
  })

  it('says how a pass that did not run to its end ended, and uses no line of the architect then', () => {
    expect(decisionsLine(facts({status: 'stopped', ending: 'stopped by the operator', drafts: [], architectLine: 'decisions: all good'}))).toBe('decisions: stopped by the operator; dispatched 0; deferred 3: API1, API3, API4 (the pass was stopped before it was briefed); drafts skipped 0')
    expect(decisionsLine(facts({status: 'failed', ending: "the architect's turn failed (timeout)", offered: ['API1']}))).toBe("decisions: the architect's turn failed (timeout); dispatched 0; deferred 1: API1 (the pass failed before it was briefed); drafts skipped 1: API2 (only the operator promotes a draft)")
  })

  it("keeps the architect's own line, adding the drafts count when it does not speak of drafts", () => {
    expect(decisionsLine(facts({architectLine: 'decisions: dispatched API1; deferred API3 (waits on design); 1 draft skipped'}))).toBe('decisions: dispatched API1; deferred API3 (waits on design); 1 draft skipped')
    expect(decisionsLine(facts({architectLine: 'decisions: dispatched API1'}))).toBe('decisions: dispatched API1; drafts skipped 1: API2 (only the operator promotes a draft)')
  })

  it('is cut to its limit, never losing the drafts count, and lists at most 20 ids a clause', () => {
    const long = decisionsLine(facts({architectLine: `decisions: ${'x'.repeat(5000)}`}))
    expect(long.length).toBeLessThanOrEqual(DECISIONS_MAX_CHARS)
    expect(long.endsWith('; drafts skipped 1: API2 (only the operator promotes a draft)')).toBe(true)
    const many = Array.from({length: 25}, (_, i) => `T${i + 1}`)
    expect(decisionsLine(facts({offered: many, drafts: many}))).toContain('T20 (+5 more) (not briefed in this pass)')
  })
})
