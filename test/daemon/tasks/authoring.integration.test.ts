/**
 * The tasks area's other writes (issue 20): `POST /tasks`, `POST
 * /tasks/archive` and the archive pass of cluster.yaml
 * `tasks.archive_after_days` — each through the project writer (snapshots),
 * announced once, archived ids never handed out again.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {tasksArea} from '../../../src/daemon/tasks/index.js'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {CLUSTER, frontmatter, makeRepo, taskFile} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const NOW = Date.parse('2026-03-04T05:06:07.890Z')
const OLD_DONE = '.mesh/modules/api/tasks/API2-shipped.md'
const RECENT_DONE = '.mesh/modules/api/tasks/API3-recent.md'
const NO_STAMP = '.mesh/modules/api/tasks/API4-hand-moved.md'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const doneTasks = () => ({
  // Completed 40 days before NOW, in January: archived under log/2026-01/.
  [OLD_DONE]: taskFile({id: 'API2', title: 'Shipped', status: 'done', completed_at: '2026-01-23T10:00:00Z'}),
  [RECENT_DONE]: taskFile({id: 'API3', title: 'Recent', status: 'done', completed_at: '2026-03-01T10:00:00Z'}),
  // Done by hand before v26: no completed_at, its updated date counts.
  [NO_STAMP]: taskFile({id: 'API4', title: 'Hand moved', status: 'done', updated: '2025-11-30'}),
})

async function start(extra: Record<string, string> = {}) {
  harness = await startHarness({repo: makeRepo(extra), areas: [tasksArea], clock: () => NOW})
  const events: DaemonEvent[] = []
  harness.running.daemon.context.events.subscribe((event) => events.push(event))
  const post = (path: string, body: unknown) => harness!.call('POST', path, {auth: true, body: JSON.stringify(body)})
  return {h: harness, events, post}
}

const snapshotsOf = (root: string): Array<{path: string; snapshot: string; reason: string}> => {
  const dir = join(root, '.mesh/snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((day) => readFileSync(join(dir, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
}

describe('POST /tasks', () => {
  it('creates a task with the next free id through the project writer and announces it once, with who made it', async () => {
    const {h, events, post} = await start({'.mesh/team/developer.md': frontmatter({id: 'developer', title: 'Developer', client: 'claude', model: 'opus', context: [], exposure: 'internal'}, '\nDev.\n')})
    const created = await post('/tasks', {module: 'api', title: 'Login route', priority: 'high', depends_on: ['API1'], by: 'developer'})
    expect(created.status).toBe(201)
    // API0 is archived: ids go on past it (DECISIONS: archived ids are never reused).
    expect(created.body).toMatchObject({id: 'API2', module: 'api', path: '.mesh/modules/api/tasks/API2-login-route.md'})
    expect(parseFrontmatter(h.repo.read(created.body.path)).data).toMatchObject({id: 'API2', status: 'backlog', priority: 'high', depends_on: ['API1'], created: '2026-03-04'})
    expect(events.map((e) => [e.type, e.data])).toEqual([['task.created', {id: 'API2', path: '.mesh/modules/api/tasks/API2-login-route.md', module: 'api', status: 'backlog', by: 'developer'}]])
  })

  it('refuses what `mesh task create` refuses, with the daemon codes, and writes nothing', async () => {
    const {h, post} = await start()
    const cases: Array<[unknown, number, string]> = [
      [{module: 'nope', title: 'X'}, 404, 'module_unknown'],
      [{module: 'api', title: 'X', depends_on: ['API77']}, 404, 'task_not_found'],
      [{module: 'api', title: 'X', status: 'finished'}, 400, 'invalid_status'],
      [{module: 'api', title: 'X', priority: 'urgent'}, 400, 'invalid_priority'],
      [{module: 'api', title: 'X', slug: 'Bad Slug'}, 400, 'invalid_slug'],
      [{module: 'api', title: 'two\nlines'}, 400, 'invalid_title'],
      [{module: 'api', title: 'X', by: 'ghost'}, 400, 'unknown_member'],
      [{module: 'api'}, 400, 'invalid_body'],
      [{module: 'api', title: 'X', extra: 1}, 400, 'invalid_body'],
    ]
    for (const [body, status, code] of cases) {
      const answer = await post('/tasks', body)
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([status, code])
    }
    expect(readdirSync(join(h.repo.root, '.mesh/modules/api/tasks'))).toEqual(['API1-first-task.md'])
  })
})

describe('POST /tasks/archive', () => {
  it('moves done tasks completed long enough ago to log/<YYYY-MM>/, bytes kept, the removed file snapshotted; their ids stay taken', async () => {
    const {h, events, post} = await start(doneTasks())
    const before = {old: h.repo.read(OLD_DONE), stamp: h.repo.read(NO_STAMP)}
    const archived = await post('/tasks/archive', {older_than_days: 30})
    expect(archived.status).toBe(200)
    expect(archived.body).toEqual({
      archived: [
        {id: 'API2', module: 'api', from: OLD_DONE, to: '.mesh/modules/api/log/2026-01/API2-shipped.md', completed_at: '2026-01-23T10:00:00Z'},
        {id: 'API4', module: 'api', from: NO_STAMP, to: '.mesh/modules/api/log/2025-11/API4-hand-moved.md', completed_at: '2025-11-30T00:00:00Z'},
      ],
      skipped: [],
    })
    expect(existsSync(join(h.repo.root, OLD_DONE))).toBe(false)
    expect(h.repo.read('.mesh/modules/api/log/2026-01/API2-shipped.md')).toBe(before.old)
    expect(h.repo.read('.mesh/modules/api/log/2025-11/API4-hand-moved.md')).toBe(before.stamp)
    // The recent one and the active one stay.
    expect(readdirSync(join(h.repo.root, '.mesh/modules/api/tasks')).sort()).toEqual(['API1-first-task.md', 'API3-recent.md'])

    const removed = snapshotsOf(h.repo.root).find((record) => record.path === 'modules/api/tasks/API2-shipped.md')
    expect(removed).toMatchObject({reason: 'task.archive'})
    expect(readFileSync(join(h.repo.root, '.mesh', removed!.snapshot), 'utf8')).toBe(before.old)
    expect(events.filter((e) => e.type === 'task.archived').map((e) => e.data)).toEqual([
      {id: 'API2', module: 'api', path: '.mesh/modules/api/log/2026-01/API2-shipped.md', from_path: OLD_DONE, completed_at: '2026-01-23T10:00:00Z', by: 'operator'},
      {id: 'API4', module: 'api', path: '.mesh/modules/api/log/2025-11/API4-hand-moved.md', from_path: NO_STAMP, completed_at: '2025-11-30T00:00:00Z', by: 'operator'},
    ])

    // The highest id of the module (API4) is archived now: the next task is API5, never API4 again.
    expect((await post('/tasks', {module: 'api', title: 'After the archive'})).body.id).toBe('API5')
    // Archived tasks are history: not moved.
    expect((await post('/tasks/API2/transition', {status: 'active'})).body.error.code).toBe('task_archived')
  })

  it('archives every done task with older_than_days 0, and leaves one whose archive name is taken, saying why', async () => {
    const {h, post} = await start({...doneTasks(), '.mesh/modules/api/log/2026-03/API3-recent.md': 'a file already there\n'})
    const archived = await post('/tasks/archive', {older_than_days: 0})
    expect(archived.body.archived.map((task: {id: string}) => task.id)).toEqual(['API2', 'API4'])
    expect(archived.body.skipped).toEqual([{id: 'API3', path: RECENT_DONE, reason: '.mesh/modules/api/log/2026-03/API3-recent.md exists already'}])
    expect(h.repo.read('.mesh/modules/api/log/2026-03/API3-recent.md')).toBe('a file already there\n')
    expect(existsSync(join(h.repo.root, RECENT_DONE))).toBe(true)
  })
})

describe('the archive pass (cluster.yaml tasks.archive_after_days)', () => {
  it('archives at start what is old enough, and nothing without the setting', async () => {
    const {h} = await start({...doneTasks(), '.mesh/public/cluster.yaml': stringify({...CLUSTER, tasks: {archive_after_days: 30}})})
    // The pass's debug line comes once every task of it has moved (each is written at its new place, then removed).
    const archiveLines = () => h.running.daemon.context.debug.tail({lastSecs: 3600, tags: ['tasks.archive']}).events
    await expect.poll(() => archiveLines().length, {timeout: 10_000}).toBe(1)
    expect(existsSync(join(h.repo.root, '.mesh/modules/api/log/2026-01/API2-shipped.md'))).toBe(true)
    expect(existsSync(join(h.repo.root, OLD_DONE))).toBe(false)
    expect(existsSync(join(h.repo.root, RECENT_DONE))).toBe(true)
    expect(archiveLines()).toEqual([expect.objectContaining({lvl: 'info', msg: 'archived 2 done task(s): API2, API4', data: expect.objectContaining({by: 'daemon'})})])
    await h.close()
    harness = undefined

    const off = await start(doneTasks())
    // The start is done (its archive pass ran, finding no setting): nothing moved.
    expect((await off.post('/tasks/API1/transition', {status: 'active'})).status).toBe(200)
    expect(existsSync(join(off.h.repo.root, OLD_DONE))).toBe(true)
    expect(existsSync(join(off.h.repo.root, '.mesh/modules/api/log/2026-01'))).toBe(false)
  })
})
