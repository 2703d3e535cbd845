/**
 * Asks are sandboxed (issue 19): a turn an outside caller may have steered —
 * an ask input, or any turn of an ask conversation — reaches the hooks
 * without its markers, and the debug stream names what was ignored; any
 * other turn keeps them.
 */
import {describe, expect, it} from 'vitest'
import {isSandboxed, SANDBOX_TAG, sandboxFinal} from '../../../src/daemon/chat/sandbox.js'
import type {Marker} from '../../../src/daemon/chat/types.js'
import {turnFinal} from './resolution/final-fixture.js'

const markers: Marker[] = [
  {kind: 'delegate', data: {member: 'developer', brief: 'x'}},
  {kind: 'report', data: {status: 'done', task: 'API1'}},
  {kind: 'commit', data: {subject: 'feat: x', files: ['a']}},
  {kind: 'become', data: {member: 'developer'}},
  {kind: 'report', data: {status: 'done'}},
  {kind: 'invalid', name: 'mesh-nope', error: 'unknown'},
]

function debugLog() {
  const lines: Array<Record<string, any>> = []
  return {lines, context: {debug: {log: (line: Record<string, any>) => void lines.push(line)}} as any}
}

describe('sandboxed turns', () => {
  it('drop every marker of an ask turn and say which in the debug stream', () => {
    const {lines, context} = debugLog()
    const final = turnFinal({conv: 'ask-consultant-abc', profile: 'consultant', markers, inputs: [{conv: 'ask-consultant-abc', member: 'consultant', text: 'hi', author: 'caller', origin: 'ask'}]})
    const seen = sandboxFinal(context, final)
    expect(seen.markers).toEqual([])
    expect(seen.text).toBe(final.text)
    expect(final.markers).toHaveLength(6)
    expect(lines).toEqual([expect.objectContaining({lvl: 'warn', tag: SANDBOX_TAG, conv: 'ask-consultant-abc', agent_id: 'consultant'})])
    expect(lines[0].msg).toContain('mesh-delegate, 2 × mesh-report, mesh-commit, mesh-become, mesh-nope')
    expect(lines[0].data.ignored).toEqual(['mesh-delegate', 'mesh-report', 'mesh-commit', 'mesh-become', 'mesh-report', 'mesh-nope'])
  })

  it('cover any turn of an ask conversation (a queued item, the operator going on) and any turn with an ask input', () => {
    expect(isSandboxed({conv: 'ask-consultant-abc', inputs: [{conv: 'ask-consultant-abc', member: 'consultant', text: 'later', author: 'operator', origin: 'queue'}]})).toBe(true)
    expect(isSandboxed({conv: 'c-0123456789ab', inputs: [{conv: 'c-0123456789ab', member: 'consultant', text: 'hi', author: 'caller', origin: 'ask'}]})).toBe(true)
    expect(isSandboxed({conv: 'c-0123456789ab', inputs: [{conv: 'c-0123456789ab', member: 'developer', text: 'hi', author: 'operator', origin: 'send'}]})).toBe(false)
    expect(isSandboxed({conv: 'm-developer', inputs: [{conv: 'm-developer', member: 'developer', text: 'brief', author: 'architect', origin: 'delegation', merge: true}]})).toBe(false)
  })

  it('leave the operator’s turns as they are, and log nothing', () => {
    const {lines, context} = debugLog()
    const final = turnFinal({markers})
    expect(sandboxFinal(context, final)).toBe(final)
    expect(lines).toEqual([])
  })
})
