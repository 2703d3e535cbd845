import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {createTask, listTasks, moveTask, scanTasks, showTask} from '../../../src/standard/tasks/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const LATER = new Date('2026-04-01T12:34:56.789Z')

describe('moveTask', () => {
  it('sets status and updated, stamps completed_at on done, and keeps the body byte-identical', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'Ship it'})
    const path = join(root, task.path)
    const body = '\n## Scope\r\n\nOdd  bytes\t here — ✓\n\n## Resolution\n\nkept\n'
    await writeFile(path, (await readFile(path, 'utf8')).replace(/\n## Scope[\s\S]*$/, body))
    const moved = await moveTask(root, task.id, 'done', LATER)
    expect(moved).toEqual({id: 'GEN1', path: task.path, module: 'general', from: 'backlog', to: 'done', dispatchable: false, changed: true, completed_at: '2026-04-01T12:34:56Z'})
    const text = await readFile(path, 'utf8')
    expect(splitFrontmatter(text).body).toBe(body)
    const data = parseFrontmatter(text).data as Record<string, unknown>
    expect(data).toMatchObject({status: 'done', updated: '2026-04-01', completed_at: '2026-04-01T12:34:56Z', created: task.frontmatter.created})
    expect(getValidator('task')(data)).toBe(true)
  })

  it('goes by the file as it is now, not the record it was found by (a hand edit since an index read wins)', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'Ship it'})
    const [stale] = await scanTasks(root)
    const path = join(root, task.path)
    await writeFile(path, (await readFile(path, 'utf8')).replace('status: backlog', 'status: draft'))
    const seen: string[] = []
    const moved = await moveTask(root, task.id, 'next', LATER, {find: async () => stale, check: (move) => void seen.push(move.from)})
    expect([moved.from, seen]).toEqual(['draft', ['draft']])
  })

  it('writes alias words canonically where one fits and reports dispatchability (v15)', async () => {
    const root = await tempProject()
    await createTask(root, {module: 'general', title: 'A'})
    const cases: Array<[string, string, boolean]> = [
      ['planned', 'next', true],
      ['doing', 'active', true],
      ['in-progress', 'active', true],
      ['blocked', 'blocked', false],
      ['pending-operator', 'pending-operator', false],
      ['cancelled', 'cancelled', false],
      ['draft', 'draft', false],
      ['next', 'next', true],
    ]
    for (const [word, written, dispatchable] of cases) {
      const moved = await moveTask(root, 'GEN1', word, LATER)
      expect([moved.to, moved.dispatchable], word).toEqual([written, dispatchable])
    }
  })

  it('drops completed_at when a done task is reopened, and changes nothing when the status is the same', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'A'})
    await moveTask(root, 'GEN1', 'done', LATER)
    const doneText = await readFile(join(root, task.path), 'utf8')
    expect(await moveTask(root, 'GEN1', 'done')).toMatchObject({changed: false, completed_at: '2026-04-01T12:34:56Z'})
    expect(await readFile(join(root, task.path), 'utf8')).toBe(doneText)
    await moveTask(root, 'gen1', 'active', LATER)
    expect(parseFrontmatter(await readFile(join(root, task.path), 'utf8')).data).not.toHaveProperty('completed_at')
  })

  it('drops resolved_by and resolved_by_conv with completed_at when a resolved task leaves done; ## Resolution and commit_shas stay (issue 20)', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'A'})
    const path = join(root, task.path)
    await moveTask(root, 'GEN1', 'done', LATER)
    const resolved = (await readFile(path, 'utf8'))
      .replace(/^completed_at: .*$/m, (line) => `${line}\nresolved_by: developer\nresolved_by_conv: c-0123456789ab\ncommit_shas:\n  - 0123456789abcdef0123456789abcdef01234567`)
      .concat('\n## Resolution\n\nDone it.\n')
    await writeFile(path, resolved)
    await moveTask(root, 'GEN1', 'blocked', LATER)
    const text = await readFile(path, 'utf8')
    const data = parseFrontmatter(text).data as Record<string, unknown>
    expect(data).toMatchObject({status: 'blocked', commit_shas: ['0123456789abcdef0123456789abcdef01234567']})
    for (const field of ['completed_at', 'resolved_by', 'resolved_by_conv']) expect(data, field).not.toHaveProperty(field)
    expect(splitFrontmatter(text).body).toBe(splitFrontmatter(resolved).body)
  })

  it('refuses unknown statuses, unknown ids and archived tasks', async () => {
    const root = await tempProject()
    await createTask(root, {module: 'general', title: 'A'})
    await expect(moveTask(root, 'GEN1', 'finished')).rejects.toMatchObject({code: 'usage_status_invalid'})
    await expect(moveTask(root, 'GEN9', 'done')).rejects.toMatchObject({code: 'task_unknown'})
    const archived = join(root, '.mesh/modules/general/log/2026-01')
    await mkdir(archived, {recursive: true})
    await writeFile(join(archived, 'GEN0-old.md'), '---\nid: GEN0\nstatus: done\n---\n')
    await expect(moveTask(root, 'GEN0', 'active')).rejects.toMatchObject({code: 'task_archived'})
  })

  it('refuses to rewrite a file that is not UTF-8, leaving its bytes alone', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'Cafe'})
    const latin1 = Buffer.from((await readFile(join(root, task.path), 'utf8')).replace('title: Cafe', 'title: Café'), 'latin1')
    await writeFile(join(root, task.path), latin1)
    await expect(moveTask(root, 'GEN1', 'active')).rejects.toMatchObject({code: 'file_not_utf8', message: expect.stringMatching(/GEN1-cafe\.md:3:11: not valid UTF-8 \(byte 0xE9\)/)})
    expect(await readFile(join(root, task.path))).toEqual(latin1)
  })
})

describe('listTasks and showTask', () => {
  it('filters by status (aliases match their canonical status), module, owner and initiative', async () => {
    const root = await tempProject()
    await createTask(root, {module: 'general', title: 'A', status: 'active', owner: 'developer'})
    await createTask(root, {module: 'deploy', title: 'B', status: 'next'})
    const c = await createTask(root, {module: 'general', title: 'C'})
    const path = join(root, c.path)
    await writeFile(path, (await readFile(path, 'utf8')).replace('status: backlog', 'status: doing'))
    const ids = async (filter: Parameters<typeof listTasks>[1]) => (await listTasks(root, filter)).map((task) => task.id)
    expect(await ids({})).toEqual(['DEP1', 'GEN1', 'GEN2'])
    expect(await ids({status: ['active']})).toEqual(['GEN1', 'GEN2'])
    expect(await ids({status: ['next', 'doing']})).toEqual(['DEP1', 'GEN1', 'GEN2'])
    expect(await ids({module: 'general', owner: 'developer'})).toEqual(['GEN1'])
    expect(await ids({initiative: 'none'})).toEqual([])
  })

  it('sorts ids numerically and includes archived tasks only when asked', async () => {
    const root = await tempProject()
    for (let i = 0; i < 11; i++) await createTask(root, {module: 'general', title: `T${i}`})
    expect((await listTasks(root)).map((task) => task.id).slice(-3)).toEqual(['GEN9', 'GEN10', 'GEN11'])
    const archived = join(root, '.mesh/modules/general/log/2026-01')
    await mkdir(archived, {recursive: true})
    await writeFile(join(archived, 'GEN0-old.md'), '---\nid: GEN0\ntitle: Old\nstatus: done\n---\n')
    expect((await listTasks(root)).some((task) => task.archived)).toBe(false)
    expect((await listTasks(root, {archived: true})).find((task) => task.id === 'GEN0')).toMatchObject({archived: true, status: 'done'})
  })

  it('shows a task with its body', async () => {
    const root = await tempProject()
    await createTask(root, {module: 'general', title: 'A', status: 'next'})
    const shown = await showTask(root, 'GEN1')
    expect(shown).toMatchObject({id: 'GEN1', title: 'A', dispatchable: true, module: 'general'})
    expect(shown.body).toContain('## Done when')
  })
})
