import {describe, expect, it} from 'vitest'
import {statusLines} from '../../src/cli/architect-render.js'
import type {ArchitectStatus} from '../../src/daemon/architect/wire.js'

const status = (over: Partial<ArchitectStatus>): ArchitectStatus => ({
  auto: true, min_interval_seconds: 60, conv: 'arch-pass', busy: false, pass: null, last: null, dispatchable: [], drafts: [], waiting: [], next_wake_at: null, ...over,
})

describe('mesh architect status in words', () => {
  it('names the debounce, or says there is none when it is 0', () => {
    expect(statusLines(status({}))[0]).toBe('Automatic passes: on (at most one every 60 s).')
    expect(statusLines(status({min_interval_seconds: 0}))[0]).toBe('Automatic passes: on (no minimum interval).')
    expect(statusLines(status({auto: false}))[0]).toBe('Automatic passes: off (architect.auto in cluster.yaml).')
  })

  it('prints an agent-written decisions line inert', () => {
    const last = {pass_id: 'ap-1', trigger: 'run', status: 'done', ended_at: '2026-11-27T10:00:00.000Z', decisions: 'decisions: \u001b[31mred\u001b[0m'} as ArchitectStatus['last']
    const lines = statusLines(status({last}))
    expect(lines).toContain('Pass ap-1 (run) done at 2026-11-27 10:00:00:')
    expect(lines.join('\n')).not.toContain('\u001b')
  })
})
