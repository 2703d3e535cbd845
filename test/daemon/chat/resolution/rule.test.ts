import {describe, expect, it} from 'vitest'
import {resolutionContent, RESOLUTION_MAX_BYTES, taskToResolve} from '../../../../src/daemon/chat/resolution/index.js'
import type {Marker, TurnFinal} from '../../../../src/daemon/chat/types.js'
import {turnFinal} from './final-fixture.js'

const report = (data: Record<string, unknown>): Marker => ({kind: 'report', data})

describe('when a turn finished a task', () => {
  it('resolves the task of a done report: the one it names, else the anchor', () => {
    expect(taskToResolve(turnFinal({markers: [report({status: 'done'})], anchor: {initiative: 'I1', task: 'API1'}}))).toMatchObject({task: 'API1'})
    expect(taskToResolve(turnFinal({markers: [report({outcome: 'success', task: 'API2'})], anchor: {task: 'API1'}}))).toMatchObject({task: 'API2'})
    expect(taskToResolve(turnFinal({markers: [report({status: ' Done '})]}))).toMatchObject({task: 'API1'})
  })

  it('takes the last report: a later one supersedes an earlier one', () => {
    expect(taskToResolve(turnFinal({markers: [report({status: 'done'}), report({status: 'blocked'})]}))).toEqual({skip: 'not_done'})
    expect(taskToResolve(turnFinal({markers: [report({status: 'blocked'}), report({status: 'done'})]}))).toMatchObject({task: 'API1'})
  })

  it('skips a failed turn, a turn without a report or not done, and a turn with no task', () => {
    expect(taskToResolve(turnFinal({status: 'failed', reason: 'exit', markers: [report({status: 'done'})]}))).toEqual({skip: 'turn_failed'})
    expect(taskToResolve(turnFinal({text: 'Status: done\n✓ done #API1', markers: []}))).toEqual({skip: 'no_report'})
    expect(taskToResolve(turnFinal({markers: [{kind: 'invalid', name: 'mesh-report', error: 'not JSON'}]}))).toEqual({skip: 'no_report'})
    expect(taskToResolve(turnFinal({markers: [report({status: 'partial'})]}))).toEqual({skip: 'not_done'})
    expect(taskToResolve(turnFinal({markers: [report({status: 'done'})], anchor: undefined}))).toEqual({skip: 'no_task'})
  })

  it('lets a delegated turn resolve only a task its report names', () => {
    const delegated: Partial<TurnFinal> = {inputs: [{conv: 'm-developer', member: 'developer', text: 'brief', author: 'architect', origin: 'delegation', request_ids: ['dlg_1']}]}
    expect(taskToResolve(turnFinal({...delegated, markers: [report({status: 'done', for: ['dlg_1']})]}))).toEqual({skip: 'delegated_without_task'})
    expect(taskToResolve(turnFinal({markers: [report({status: 'done', for: ['dlg_1']})]}))).toEqual({skip: 'delegated_without_task'})
    expect(taskToResolve(turnFinal({...delegated, markers: [report({status: 'done', task: 'API1'})]}))).toMatchObject({task: 'API1'})
  })
})

describe('the Resolution text', () => {
  it('is the final message, else the report summary, else a note', () => {
    expect(resolutionContent(turnFinal({text: '  Shipped it.\n'}), {})).toBe('Shipped it.')
    expect(resolutionContent(turnFinal({text: ' '}), {summary: 'From the report.'})).toBe('From the report.')
    expect(resolutionContent(turnFinal({text: ''}), {})).toBe('_(The turn ended without a final message.)_')
  })

  it('keeps the start and the end of a long message — its summary — within 8 KB, with a note naming the conversation and turn', () => {
    const work = Array.from({length: 400}, (_, i) => `step ${i}: changed src/file-${i}.ts and ran its tests`).join('\n')
    const text = `Plan: touch every file.\n${work}\n\nSummary: all 400 files are migrated and the suite is green.`
    const content = resolutionContent(turnFinal({text}), {})
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(RESOLUTION_MAX_BYTES + 300)
    expect(content.startsWith('Plan: touch every file.\nstep 0: changed src/file-0.ts')).toBe(true)
    expect(content.endsWith('step 399: changed src/file-399.ts and ran its tests\n\nSummary: all 400 files are migrated and the suite is green.')).toBe(true)
    expect(content).toMatch(/\n\n_\(… \d+ KB of the final message cut here, to keep this section under 8 KB: the whole message is in the timeline, conversation c-0123456789ab, turn t-0123456789ab\.\)_\n\n/)
    // Whole lines on both sides of the cut.
    const [head, , tail] = content.split(/\n\n(_\(…[^\n]*)\n\n/)
    expect(head.split('\n').at(-1)).toMatch(/^step \d+: changed src\/file-\d+\.ts and ran its tests$/)
    expect(tail.split('\n')[0]).toMatch(/^step \d+: changed src\/file-\d+\.ts and ran its tests$/)
  })

  it('cuts a message of one endless line on characters, and opens again a code block the cut falls in', () => {
    const wide = resolutionContent(turnFinal({text: 'é'.repeat(RESOLUTION_MAX_BYTES)}), {})
    const [head, note, tail] = wide.split('\n\n')
    expect(head).toMatch(/^é+$/)
    expect(tail).toMatch(/^é+$/)
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(RESOLUTION_MAX_BYTES)
    expect(note).toMatch(/^_\(… \d+ KB of the final message cut here/)

    const code = Array.from({length: 1500}, (_, i) => `  line(${i})`).join('\n')
    const fenced = resolutionContent(turnFinal({text: `Done.\n~~~ts\n${code}\n~~~\nAll good.`}), {})
    const parts = fenced.split(/\n\n_\(…[^\n]*\n\n/)
    // The head's open block is closed with its own fence; the tail's opens again with the same line.
    expect(parts[0].endsWith('\n~~~')).toBe(true)
    expect(parts[1].startsWith('~~~ts\n  line(')).toBe(true)
    expect(parts[1].endsWith('  line(1499)\n~~~\nAll good.')).toBe(true)
  })
})
