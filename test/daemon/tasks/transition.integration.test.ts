import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {tasksArea} from '../../../src/daemon/tasks/index.js'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {makeRepo, taskFile, TASK_BODY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const NOW = Date.parse('2026-03-04T05:06:07.890Z')
const TASK = '.mesh/modules/api/tasks/API1-first-task.md'
const DRAFT = '.mesh/modules/api/tasks/API2-draft.md'
const ODD_BODY = '\n## Scope\r\n\nOdd  bytes\t here — ✓\n\n## Resolution\n\nkept\n'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

async function start(extra: Record<string, string> = {}) {
  harness = await startHarness({repo: makeRepo(extra), areas: [tasksArea], clock: () => NOW})
  const events: DaemonEvent[] = []
  harness.running.daemon.context.events.subscribe((event) => events.push(event))
  const move = (id: string, body: unknown, raw?: string) =>
    harness!.call('POST', `/tasks/${id}/transition`, {auth: true, body: raw ?? JSON.stringify(body)})
  return {h: harness, events, move}
}

const dataOf = (text: string) => parseFrontmatter(text).data as Record<string, unknown>

/** The snapshot index lines the project writer kept. */
function snapshotsOf(root: string): Array<{path: string; snapshot: string; reason: string}> {
  const dir = join(root, '.mesh/snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((day) =>
    readFileSync(join(dir, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)),
  )
}

describe('POST /tasks/:id/transition', () => {
  it('moves a task like `mesh task move`: frontmatter changed, body byte-identical, snapshot kept, task.updated published', async () => {
    const {h, events, move} = await start({[TASK]: taskFile({status: 'next'}, ODD_BODY)})
    const before = h.repo.read(TASK)

    const done = await move('API1', {status: 'done'})
    expect(done.status).toBe(200)
    expect(done.body).toEqual({id: 'API1', path: TASK, module: 'api', from: 'next', to: 'done', dispatchable: false, changed: true, completed_at: '2026-03-04T05:06:07Z'})
    const after = h.repo.read(TASK)
    expect(dataOf(after)).toMatchObject({status: 'done', updated: '2026-03-04', completed_at: '2026-03-04T05:06:07Z', title: 'First task', created: '2026-01-05'})
    expect(splitFrontmatter(after).body).toBe(ODD_BODY)

    const [kept] = snapshotsOf(h.repo.root)
    expect(kept).toMatchObject({path: 'modules/api/tasks/API1-first-task.md', reason: 'task.transition'})
    expect(readFileSync(join(h.repo.root, '.mesh', kept.snapshot), 'utf8')).toBe(before)

    expect(events.filter((e) => e.type === 'task.updated').map((e) => e.data)).toEqual([
      {id: 'API1', path: TASK, module: 'api', from: 'next', to: 'done', dispatchable: false, completed_at: '2026-03-04T05:06:07Z', by: 'operator'},
    ])
  })

  it('writes alias words canonically, reports dispatchability, and drops completed_at when reopened', async () => {
    const {h, move} = await start()
    expect((await move('API1', {status: 'done'})).body.completed_at).toBe('2026-03-04T05:06:07Z')
    const doing = await move('api1', {status: 'doing'})
    expect(doing.body).toMatchObject({id: 'API1', from: 'done', to: 'active', dispatchable: true, completed_at: null})
    expect(dataOf(h.repo.read(TASK))).not.toHaveProperty('completed_at')
    expect((await move('API1', {status: 'pending-operator'})).body).toMatchObject({to: 'pending-operator', dispatchable: false})
  })

  it('answers changed: false and writes nothing when the task already has that status', async () => {
    const {h, events, move} = await start()
    const before = h.repo.read(TASK)
    const same = await move('API1', {status: 'planned'})
    expect(same.status).toBe(200)
    expect(same.body).toMatchObject({from: 'next', to: 'next', changed: false, dispatchable: true})
    expect(h.repo.read(TASK)).toBe(before)
    expect(snapshotsOf(h.repo.root)).toEqual([])
    expect(events.filter((e) => e.type === 'task.updated')).toEqual([])
  })

  it('lets only the operator take a task out of draft (spec: States and transitions)', async () => {
    const {h, events, move} = await start({[DRAFT]: taskFile({id: 'API2', title: 'Draft', status: 'draft'})})
    const before = h.repo.read(DRAFT)

    // Any move out of draft by a member, not only to a dispatchable status: a member proposes drafts, never decides them.
    for (const status of ['next', 'planned', 'active', 'blocked', 'done', 'cancelled']) {
      const refused = await move('API2', {status, by: 'architect'})
      expect(refused.status, status).toBe(403)
      expect(refused.body.error.code).toBe('operator_only')
      expect(refused.body.error.message).toMatch(/API2 is a draft: only the operator takes a task out of draft/)
    }
    expect(h.repo.read(DRAFT)).toBe(before)
    expect(events).toEqual([])

    // A member may put a task back into draft (a proposal), and the draft stays where it is.
    expect((await move('API1', {status: 'draft', by: 'architect'})).body).toMatchObject({from: 'next', to: 'draft', changed: true})
    expect((await move('API2', {status: 'draft', by: 'architect'})).body).toMatchObject({to: 'draft', changed: false})

    const promoted = await move('API2', {status: 'next', by: 'operator'})
    expect(promoted.status).toBe(200)
    expect(promoted.body).toMatchObject({from: 'draft', to: 'next', dispatchable: true, changed: true})
    expect(dataOf(h.repo.read(DRAFT)).status).toBe('next')
    expect(splitFrontmatter(h.repo.read(DRAFT)).body).toBe(TASK_BODY)
  })

  it('treats a caller without `by` as the operator', async () => {
    const {events, move} = await start({[DRAFT]: taskFile({id: 'API2', title: 'Draft', status: 'draft'})})
    expect((await move('API2', {status: 'next'})).body).toMatchObject({from: 'draft', to: 'next'})
    expect(events.at(-1)?.data).toMatchObject({id: 'API2', by: 'operator'})
  })

  it('refuses archived tasks with 409 task_archived and leaves the file alone', async () => {
    const {h, move} = await start()
    const archived = '.mesh/modules/api/log/2025-12/API0-old-task.md'
    const before = h.repo.read(archived)
    const refused = await move('API0', {status: 'active'})
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('task_archived')
    expect(h.repo.read(archived)).toBe(before)
  })

  it('answers unknown tasks, bad ids, bad statuses and bad members with stable codes', async () => {
    const {h, move} = await start({'.mesh/modules/api/tasks/API7-broken.md': 'no frontmatter at all\n'})
    const before = h.repo.read(TASK)
    const cases: Array<[string, unknown, number, string, string?]> = [
      ['API9', {status: 'done'}, 404, 'task_not_found'],
      ['API1', {status: 'finished'}, 400, 'invalid_status', 'status'],
      ['API1', {status: 7}, 400, 'invalid_body', 'status'],
      ['API1', {}, 400, 'invalid_body', 'status'],
      ['API1', {status: 'done', by: 'Not A Member'}, 400, 'invalid_body', 'by'],
      ['API1', {status: 'done', by: 'ghost'}, 400, 'unknown_member', 'by'],
      ['API1', [], 400, 'invalid_body'],
      ['API7', {status: 'done'}, 409, 'task_unreadable'],
      ['..', {status: 'done'}, 400, 'invalid_id'],
      ['..%2f..%2fetc', {status: 'done'}, 400, 'invalid_id'],
      ['%2e%2e%2f%2e%2e%2fAPI1', {status: 'done'}, 400, 'invalid_id'],
      ['API1%00', {status: 'done'}, 400, 'invalid_id'],
      ['A'.repeat(40), {status: 'done'}, 400, 'invalid_id'],
    ]
    for (const [id, body, status, code, field] of cases) {
      const answer = await move(id, body)
      expect([answer.status, answer.body.error?.code], `${id} ${JSON.stringify(body)}`).toEqual([status, code])
      if (field) expect(answer.body.error.field).toBe(field)
    }
    const malformed = await move('API1', null, '{"status": ')
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_json'])
    const noToken = await h.call('POST', '/tasks/API1/transition', {body: JSON.stringify({status: 'done'})})
    expect(noToken.status).toBe(401)
    const oversized = await move('API1', null, JSON.stringify({status: 'done', pad: 'x'.repeat(1024 * 1024)}))
    expect(oversized.status).toBe(413)
    expect(h.repo.read(TASK)).toBe(before)
    expect(snapshotsOf(h.repo.root)).toEqual([])
  })
})
