/**
 * The board an architect pass gets and `.mesh/state.json` lists (spec:
 * Dispatchability v15; issue 20): dispatchable statuses whose dependencies
 * are all done, in priority order, then `order`, then id; drafts never, but
 * listed; archived tasks never.
 */
import {describe, expect, it} from 'vitest'
import {compareDispatchOrder, dispatchBoard, summarize, type TaskRecord} from '../../../src/standard/tasks/index.js'

const record = (id: string, data: Record<string, unknown>, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  module: 'api',
  path: `/p/.mesh/modules/api/tasks/${id}-x.md`,
  relativePath: `.mesh/modules/api/tasks/${id}-x.md`,
  archived: false,
  data: {id, title: id, status: 'next', priority: 'medium', owner: 'developer', ...data},
  ...extra,
})
const board = (records: TaskRecord[]) => dispatchBoard(records.map(summarize))

describe('dispatchBoard', () => {
  it('orders the dispatchable tasks critical > high > medium > low > none, then order (none last), then id as a person reads it', () => {
    const shown = board([
      record('API10', {priority: 'high'}),
      record('API2', {priority: 'high'}),
      record('API3', {priority: 'low'}),
      record('API4', {priority: 'critical'}),
      record('API5', {priority: 'high', order: 1}),
      record('API6', {priority: 'high', order: 0}),
      record('API7', {priority: ''}),
      record('API8', {priority: 'urgent'}),
      record('API9', {priority: 'medium', order: 9}),
      record('API11', {priority: 'medium'}),
    ])
    expect(shown.dispatchable.map((task) => task.id)).toEqual(['API4', 'API6', 'API5', 'API2', 'API10', 'API9', 'API11', 'API3', 'API7', 'API8'])
  })

  it('takes only the dispatchable statuses, keeps drafts apart and waits on dependencies not yet done (an archived done one is met, a missing one is not)', () => {
    const shown = board([
      record('A1', {status: 'next'}),
      record('A2', {status: 'active'}),
      record('A3', {status: 'in_progress'}),
      record('A4', {status: 'doing'}),
      record('A5', {status: 'planned'}),
      record('B1', {status: 'backlog'}),
      record('B2', {status: 'blocked'}),
      record('B3', {status: 'done'}),
      record('B4', {status: 'cancelled'}),
      record('B5', {status: 'pending-operator'}),
      record('D2', {status: 'draft'}),
      record('D1', {status: 'draft'}),
      record('W1', {status: 'next', depends_on: ['B3', 'OLD1']}),
      record('W2', {status: 'next', depends_on: ['B1', 'B3', 'NOPE']}),
      record('OLD1', {status: 'done'}, {archived: true}),
      record('OLD2', {status: 'next'}, {archived: true}),
      record('BAD', {}, {problem: 'the frontmatter is not valid YAML', data: {}}),
    ])
    expect(shown.dispatchable.map((task) => task.id)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'W1'])
    expect(shown.drafts.map((task) => task.id)).toEqual(['D1', 'D2'])
    expect(shown.waiting).toEqual([expect.objectContaining({id: 'W2', waiting_on: ['B1', 'NOPE']})])
  })

  it('reads order only as an integer', () => {
    const [task] = board([record('A1', {order: '3'})]).dispatchable
    expect(task.order).toBeNull()
    expect(compareDispatchOrder({...task, order: 3}, {...task, id: 'A0', order: null})).toBeLessThan(0)
  })
})
