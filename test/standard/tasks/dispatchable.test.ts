import {describe, expect, it} from 'vitest'
import {dispatchBoard} from '../../../src/standard/tasks/dispatchable.js'
import type {TaskSummary} from '../../../src/standard/tasks/query.js'

const task = (id: string, status: string, priority: string, extra: Partial<TaskSummary> = {}): TaskSummary => ({
  id, title: id, status, priority, owner: 'architect', module: 'api', initiative: null, depends_on: [], created: null, updated: null, completed_at: null, dispatchable: false, archived: false, path: `.mesh/modules/api/tasks/${id}-x.md`, ...extra,
})

describe('dispatchBoard (spec v15)', () => {
  it('dispatchable by status and dependencies, critical first, numbers in ids as numbers; drafts counted, never dispatched', () => {
    const board = dispatchBoard([
      task('A10', 'next', 'medium'),
      task('A2', 'planned', 'medium'),
      task('A3', 'doing', 'critical'),
      task('A4', 'next', 'high', {depends_on: ['A5', 'A9', 'OLD1']}),
      task('A5', 'done', 'low'),
      task('A6', 'draft', 'critical'),
      task('A7', 'blocked', 'critical'),
      task('A8', 'next', 'urgent'),
      task('A11', 'next', 'low', {depends_on: ['OLD1']}),
      task('OLD1', 'done', 'low', {archived: true}),
      task('OLD2', 'next', 'critical', {archived: true}),
    ])
    expect(board.dispatchable.map((t) => t.id)).toEqual(['A3', 'A2', 'A10', 'A11', 'A8'])
    // A9 has no file: not done, so A4 waits on it.
    expect(board.waiting.map(({task: t, waiting_on}) => [t.id, waiting_on])).toEqual([['A4', ['A9']]])
    expect(board.drafts.map((t) => t.id)).toEqual(['A6'])
  })
})
