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

  it('is cut at 8 KB on a character, with a note naming the conversation and turn', () => {
    const content = resolutionContent(turnFinal({text: 'é'.repeat(RESOLUTION_MAX_BYTES)}), {})
    const [kept, note] = content.split('\n\n')
    expect(Buffer.byteLength(kept)).toBe(RESOLUTION_MAX_BYTES)
    expect(kept).toMatch(/^é+$/)
    expect(note).toBe('_(Cut at 8 KB: the whole final message is in the timeline, conversation c-0123456789ab, turn t-0123456789ab.)_')
  })
})
