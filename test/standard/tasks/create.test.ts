import {mkdir, readFile, readdir, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {createInitiative} from '../../../src/standard/initiatives/index.js'
import {createTask, highestNumber, numberFor, reserveTaskId, scanTasks} from '../../../src/standard/tasks/index.js'
import {validateProject} from '../../../src/standard/validate/index.js'
import {tempProject, TODAY} from '../scaffold/temp-project.js'

const archive = async (root: string, module: string, month: string, name: string, id: string) => {
  const dir = join(root, '.mesh/modules', module, 'log', month)
  await mkdir(dir, {recursive: true})
  await writeFile(join(dir, name), `---\nid: ${id}\ntitle: Old\nstatus: done\npriority: low\nowner: architect\ncategory: ${module}\ncreated: 2025-01-01\nupdated: 2025-01-02\n---\n`)
}

describe('createTask', () => {
  it('writes a schema-valid task with the module prefix, today and the three body sections', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'Set up CI', now: TODAY})
    expect(task).toMatchObject({id: 'GEN1', slug: 'set-up-ci', path: '.mesh/modules/general/tasks/GEN1-set-up-ci.md'})
    const text = await readFile(join(root, task.path), 'utf8')
    const {data, body} = parseFrontmatter(text)
    expect(data).toEqual({id: 'GEN1', title: 'Set up CI', status: 'backlog', priority: 'medium', owner: 'architect', category: 'general', created: '2026-03-14', updated: '2026-03-14'})
    expect(getValidator('task')(data)).toBe(true)
    expect(body.match(/^## .+$/gm)).toEqual(['## Scope', '## Done when', '## Files'])
    expect((await validateProject(root)).findings).toEqual([])
  })

  it('numbers one past the highest id, archived ones included, and never reuses an archived id', async () => {
    const root = await tempProject()
    await archive(root, 'general', '2025-12', 'GEN7-old-thing.md', 'GEN7')
    await archive(root, 'general', '2026-01', 'GEN3-older.md', 'GEN3')
    const task = await createTask(root, {module: 'general', title: 'Next one'})
    expect(task.id).toBe('GEN8')
    expect((await createTask(root, {module: 'general', title: 'Another'})).id).toBe('GEN9')
    expect((await createTask(root, {module: 'deploy', title: 'Elsewhere'})).id).toBe('DEP1')
  })

  it('gives distinct ids to many creates racing in one process', async () => {
    const root = await tempProject()
    const tasks = await Promise.all(Array.from({length: 12}, (_, i) => createTask(root, {module: 'general', title: `Race ${i}`})))
    expect(tasks.map((task) => task.id).sort((a, b) => numberFor('GEN', a)! - numberFor('GEN', b)!)).toEqual(Array.from({length: 12}, (_, i) => `GEN${i + 1}`))
    expect((await readdir(join(root, '.mesh/modules/general/tasks'))).filter((name) => name.endsWith('.md'))).toHaveLength(12)
    // Reservations are released once the files exist.
    expect(await readdir(join(root, '.mesh/.runtime/task-ids'))).toEqual([])
  })

  it('skips an id another process holds, and one whose file appeared after the scan', async () => {
    const root = await tempProject()
    await mkdir(join(root, '.mesh/.runtime/task-ids'), {recursive: true})
    await writeFile(join(root, '.mesh/.runtime/task-ids/GEN1'), '999')
    const stale = await scanTasks(root)
    await writeFile(join(root, '.mesh/modules/general/tasks/GEN2-sneaked-in.md'), '---\nid: GEN2\n---\n')
    const reservation = await reserveTaskId(root, 'GEN', stale)
    expect(reservation.id).toBe('GEN3')
    await reservation.release()
  })

  it('uses the prefix a module without task_prefix already has, and derives one otherwise', async () => {
    const root = await tempProject()
    const clusterPath = join(root, '.mesh/public/cluster.yaml')
    await writeFile(clusterPath, (await readFile(clusterPath, 'utf8')) + '  - id: api\n    kind: code\n    path: src/api\n  - id: web-app\n    kind: code\n    path: web\n')
    expect((await createTask(root, {module: 'web-app', title: 'Landing page'})).id).toBe('WA1')
    await mkdir(join(root, '.mesh/modules/api/tasks'), {recursive: true})
    await writeFile(join(root, '.mesh/modules/api/tasks/SRV4-legacy.md'), '---\nid: SRV4\n---\n')
    expect((await createTask(root, {module: 'api', title: 'Login'})).id).toBe('SRV5')
  })

  it('records initiative, depends_on and tags, and checks they exist', async () => {
    const root = await tempProject()
    await createInitiative(root, {title: 'Auth', id: 'auth'})
    const first = await createTask(root, {module: 'general', title: 'First'})
    const second = await createTask(root, {module: 'general', title: 'Second', initiative: 'auth', dependsOn: [first.id, first.id], tags: ['x'], priority: 'high', owner: 'developer', slug: 'custom-slug'})
    expect(second.frontmatter).toMatchObject({initiative: 'auth', depends_on: ['GEN1'], tags: ['x'], priority: 'high', owner: 'developer'})
    expect(second.path).toBe('.mesh/modules/general/tasks/GEN2-custom-slug.md')
    await expect(createTask(root, {module: 'general', title: 'x', initiative: 'nope'})).rejects.toMatchObject({code: 'initiative_unknown'})
    await expect(createTask(root, {module: 'general', title: 'x', dependsOn: ['GEN99']})).rejects.toMatchObject({code: 'task_unknown'})
    expect((await validateProject(root)).findings).toEqual([])
  })

  it('refuses bad input with stable codes and writes nothing', async () => {
    const root = await tempProject()
    await expect(createTask(root, {module: 'nope', title: 'x'})).rejects.toMatchObject({code: 'module_unknown'})
    await expect(createTask(root, {module: 'general', title: '  '})).rejects.toMatchObject({code: 'usage_title_invalid'})
    await expect(createTask(root, {module: 'general', title: 'two\nlines'})).rejects.toMatchObject({code: 'usage_title_invalid'})
    await expect(createTask(root, {module: 'general', title: 'x', priority: 'urgent'})).rejects.toMatchObject({code: 'usage_priority_invalid'})
    await expect(createTask(root, {module: 'general', title: 'x', status: 'finished'})).rejects.toMatchObject({code: 'usage_status_invalid'})
    await expect(createTask(root, {module: 'general', title: 'x', slug: 'Bad Slug'})).rejects.toMatchObject({code: 'usage_slug_invalid'})
    expect(await scanTasks(root)).toEqual([])
  })

  it('writes an alias status canonically where one fits', async () => {
    const root = await tempProject()
    expect((await createTask(root, {module: 'general', title: 'a', status: 'planned'})).frontmatter.status).toBe('next')
    expect((await createTask(root, {module: 'general', title: 'b', status: 'cancelled'})).frontmatter.status).toBe('cancelled')
  })

  it('round-trips titles YAML would otherwise misread', async () => {
    const root = await tempProject()
    for (const title of ['Fix: "quotes" #hash & more', '123', 'yes', '2026-01-05', '- leading dash', '@at [brackets] {braces}']) {
      const task = await createTask(root, {module: 'general', title})
      expect(parseFrontmatter(await readFile(join(root, task.path), 'utf8')).data, title).toMatchObject({title})
    }
    expect((await validateProject(root)).findings).toEqual([])
  })

  it('highestNumber reads both the file name and the frontmatter id', () => {
    const record = (id: string, path: string) => ({id, module: 'm', path, relativePath: path, archived: false, data: {}})
    expect(highestNumber('A', [record('A2', '/x/A9-name.md'), record('B40', '/x/B40-b.md'), record('AB7', '/x/AB7-c.md')])).toBe(9)
  })
})
