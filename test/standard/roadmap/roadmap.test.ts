import {cp, readFile, rm, utimes, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {createInitiative} from '../../../src/standard/initiatives/index.js'
import {buildRoadmap, computeRoadmap, stableStringify} from '../../../src/standard/roadmap/index.js'
import {createTask, moveTask} from '../../../src/standard/tasks/index.js'
import {tempDir, tempProject} from '../scaffold/temp-project.js'

const read = (root: string, path: string) => readFile(join(root, path), 'utf8')

async function seed(root: string, order: 'forward' | 'reverse' = 'forward') {
  const steps = [
    () => createInitiative(root, {title: 'Onboarding', id: 'onboarding', now: new Date('2026-01-01T00:00:00Z')}),
    () => createInitiative(root, {title: 'Billing', id: 'billing', now: new Date('2026-01-01T00:00:00Z')}),
  ]
  for (const step of order === 'forward' ? steps : [...steps].reverse()) await step()
  const tasks: Array<[string, string, string | undefined]> = [['general', 'Welcome mail', 'onboarding'], ['deploy', 'Stripe keys', 'billing'], ['general', 'Docs', undefined]]
  for (const [module, title, initiative] of order === 'forward' ? tasks : [...tasks].reverse()) {
    await createTask(root, {module, title, initiative, slug: title.toLowerCase().replace(/ /g, '-'), now: new Date('2026-01-02T00:00:00Z')})
  }
}

describe('roadmap build', () => {
  it('derives modules, initiatives with progress, tasks and totals', async () => {
    const root = await tempProject()
    await seed(root, 'forward')
    await moveTask(root, 'GEN1', 'done', new Date('2026-01-03T00:00:00Z'))
    await createTask(root, {module: 'general', title: 'After', dependsOn: ['GEN1', 'DEP1']})
    const state = await computeRoadmap(root)
    expect(state.standard_version).toBe(38)
    expect(state.cluster).toEqual({id: 'demo', name: 'Demo', type: 'dev'})
    expect(state.modules.map((module) => [module.id, module.task_prefix])).toEqual([['project', 'PRJ'], ['deploy', 'DEP'], ['docs', 'DOC'], ['design', 'DES'], ['general', 'GEN']])
    expect(state.initiatives.map((item) => [item.id, item.progress])).toEqual([['billing', {done: 0, total: 1}], ['onboarding', {done: 1, total: 1}]])
    expect(state.tasks.find((task) => task.id === 'GEN3')).toMatchObject({waiting_on: ['DEP1']})
    expect(state.totals).toEqual({tasks: 4, initiatives: 2, by_status: {backlog: 3, done: 1}, unanchored: 2})
  })

  it('writes state.json and state.js, and the same files give the same bytes', async () => {
    const root = await tempProject()
    await seed(root, 'forward')
    const first = await buildRoadmap(root)
    expect(first.files).toEqual([{path: '.mesh/roadmap/state.json', changed: true}, {path: '.mesh/roadmap/state.js', changed: true}])
    const json = await read(root, '.mesh/roadmap/state.json')
    const js = await read(root, '.mesh/roadmap/state.js')
    expect(js).toBe(`window.MESH_ROADMAP = ${json.trimEnd()};\n`)
    expect(JSON.parse(json).tasks).toHaveLength(3)
    expect((await buildRoadmap(root)).files.every((file) => !file.changed)).toBe(true)

    // A copy made later, with other mtimes and inode order, built at another time: identical bytes.
    const other = await tempDir()
    await cp(root, other, {recursive: true})
    await rm(join(other, '.mesh/roadmap/state.json'))
    await rm(join(other, '.mesh/roadmap/state.js'))
    const later = new Date(Date.now() + 86_400_000)
    await utimes(join(other, '.mesh/modules/general/tasks/GEN1-welcome-mail.md'), later, later)
    await buildRoadmap(other)
    expect(await read(other, '.mesh/roadmap/state.json')).toBe(json)
    expect(await read(other, '.mesh/roadmap/state.js')).toBe(js)
  })

  it('leaves unreadable files out and lists them as problems, with the line of the file', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/modules/general/tasks/GEN1-broken.md'), '---\nid: [GEN1\n---\n')
    await writeFile(join(root, '.mesh/roadmap/initiatives/bad.md'), '---\nid: bad\ntitle: [x\n---\n')
    const result = await buildRoadmap(root)
    expect(result.problems).toEqual([
      {path: '.mesh/modules/general/tasks/GEN1-broken.md', problem: expect.stringMatching(/^Flow sequence .* \(line \d+, column \d+\)$/)},
      {path: '.mesh/roadmap/initiatives/bad.md', problem: expect.stringMatching(/\(line \d+, column \d+\)$/)},
    ])
    const state = JSON.parse(await read(root, '.mesh/roadmap/state.json'))
    expect(state.tasks).toEqual([])
    expect(state.initiatives).toEqual([])
    expect(state.totals).toMatchObject({tasks: 0, initiatives: 0})
  })

  it('stableStringify sorts keys at every level and keeps array order', () => {
    expect(stableStringify({b: 1, a: {d: [3, {z: 1, y: 2}], c: undefined}})).toBe(stableStringify({a: {d: [3, {y: 2, z: 1}]}, b: 1}))
    expect(stableStringify({b: 1, a: 2})).toBe('{\n  "a": 2,\n  "b": 1\n}')
  })

  it('fails clearly outside a project', async () => {
    await expect(buildRoadmap(await tempDir())).rejects.toMatchObject({code: 'cluster_yaml_missing'})
  })
})
