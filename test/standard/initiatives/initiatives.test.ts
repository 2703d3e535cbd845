import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {createFileExclusive, createInitiative, listInitiatives} from '../../../src/standard/initiatives/index.js'
import {createTask, moveTask} from '../../../src/standard/tasks/index.js'
import {validateProject} from '../../../src/standard/validate/index.js'
import {tempDir, tempProject, TODAY} from '../scaffold/temp-project.js'

describe('createInitiative', () => {
  it('writes a schema-valid initiative with the three body sections', async () => {
    const root = await tempProject()
    const created = await createInitiative(root, {title: 'Self-serve onboarding', modules: ['general', 'docs'], tags: ['growth'], now: TODAY})
    expect(created).toMatchObject({id: 'self-serve-onboarding', path: '.mesh/roadmap/initiatives/self-serve-onboarding.md'})
    const {data, body} = parseFrontmatter(await readFile(join(root, created.path), 'utf8'))
    expect(data).toEqual({id: 'self-serve-onboarding', title: 'Self-serve onboarding', status: 'active', owner: 'architect', created: '2026-03-14', updated: '2026-03-14', modules: ['general', 'docs'], tags: ['growth']})
    expect(getValidator('initiative')(data)).toBe(true)
    expect(body.match(/^## .+$/gm)).toEqual(['## Why this exists', '## Done when', '## Task plan'])
    await createInitiative(root, {title: 'Child', parentInitiative: 'self-serve-onboarding', status: 'draft'})
    expect((await validateProject(root)).findings).toEqual([])
  })

  it('suffixes a derived id that is taken, and refuses an explicit one', async () => {
    const root = await tempProject()
    expect((await createInitiative(root, {title: 'Auth'})).id).toBe('auth')
    expect((await createInitiative(root, {title: 'Auth'})).id).toBe('auth-2')
    await expect(createInitiative(root, {title: 'Other', id: 'auth'})).rejects.toMatchObject({code: 'initiative_exists'})
    const ids = await Promise.all([1, 2, 3].map(() => createInitiative(root, {title: 'Race'})))
    expect(ids.map((item) => item.id).sort()).toEqual(['race', 'race-2', 'race-3'])
  })

  it('refuses bad input', async () => {
    const root = await tempProject()
    await expect(createInitiative(root, {title: ''})).rejects.toMatchObject({code: 'usage_title_invalid'})
    await expect(createInitiative(root, {title: 'x', id: 'Bad'})).rejects.toMatchObject({code: 'usage_slug_invalid'})
    await expect(createInitiative(root, {title: 'x', status: 'next'})).rejects.toMatchObject({code: 'usage_status_invalid'})
    await expect(createInitiative(root, {title: 'x', modules: ['nope']})).rejects.toMatchObject({code: 'module_unknown'})
    await expect(createInitiative(root, {title: 'x', parentInitiative: 'nope'})).rejects.toMatchObject({code: 'initiative_unknown'})
  })
})

describe('listInitiatives', () => {
  it('lists by id with the tasks that point at each and how many are done', async () => {
    const root = await tempProject()
    await createInitiative(root, {title: 'Zeta'})
    await createInitiative(root, {title: 'Alpha'})
    await createTask(root, {module: 'general', title: 'a', initiative: 'alpha'})
    await createTask(root, {module: 'deploy', title: 'b', initiative: 'alpha'})
    await moveTask(root, 'DEP1', 'done')
    const list = await listInitiatives(root)
    expect(list.map((item) => [item.id, item.tasks, item.done])).toEqual([['alpha', ['DEP1', 'GEN1'], 1], ['zeta', [], 0]])
  })

  it('reports an unreadable file instead of failing', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/roadmap/initiatives/broken.md'), '---\ntitle: [oops\n---\n')
    expect(await listInitiatives(root)).toEqual([expect.objectContaining({id: 'broken', problem: expect.any(String)})])
  })
})

describe('createFileExclusive', () => {
  it('creates once and never replaces', async () => {
    const dir = await tempDir()
    expect(await createFileExclusive(join(dir, 'a.txt'), 'one')).toBe(true)
    expect(await createFileExclusive(join(dir, 'a.txt'), 'two')).toBe(false)
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one')
  })
})
