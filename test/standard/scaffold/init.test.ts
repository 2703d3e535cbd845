import {readFile, readdir, writeFile, mkdir} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {getValidator} from '../../../src/lib/schemas.js'
import {DENY_LIST, MARKERS, RENDER_TARGETS, TEAM_FIELDS} from '../../../src/standard/constants.js'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {completeAnswers, scaffoldProject} from '../../../src/standard/scaffold/index.js'
import {validateProject} from '../../../src/standard/validate/index.js'
import {tempDir, tempProject, TODAY} from './temp-project.js'

const read = (root: string, path: string) => readFile(join(root, path), 'utf8')
const words = (text: string) => text.split(/\s+/).filter(Boolean).length

/** Every file under `dir`, relative, sorted. */
async function tree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(join(dir, prefix), {withFileTypes: true})) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) out.push(...(await tree(dir, path)))
    else out.push(path)
  }
  return out.sort()
}

describe('scaffoldProject', () => {
  it('writes the whole standard and mesh validate finds nothing, not even a warning', async () => {
    const root = await tempProject()
    const report = await validateProject(root)
    expect(report.findings).toEqual([])
    expect(report.summary.files).toBeGreaterThan(20)
  })

  it('writes mesh.json and cluster.yaml that pass their schemas, with the v13 module layout', async () => {
    const root = await tempProject()
    const bootstrap = JSON.parse(await read(root, 'mesh.json'))
    expect(bootstrap).toEqual({mesh_version: 1, hub: {url: 'https://mesh.dev', docs: 'https://mesh.dev/docs'}})
    expect(getValidator('mesh-json')(bootstrap)).toBe(true)
    const cluster = parse(await read(root, '.mesh/public/cluster.yaml'))
    expect(getValidator('cluster-yaml')(cluster)).toBe(true)
    expect(cluster).toMatchObject({version: 1, id: 'demo', name: 'Demo', type: 'dev', transport: {endpoint: 'wss://mesh.dev/v1/clusters/demo/ws'}})
    const project = cluster.modules.find((module: {id: string}) => module.id === 'project')
    expect(project.kind).toBe('area')
    expect(project.parent).toBeUndefined()
    expect(project.path).toBeUndefined()
    for (const child of ['deploy', 'docs', 'design', 'general']) {
      expect(cluster.modules.find((module: {id: string}) => module.id === child).parent).toBe('project')
    }
  })

  it('seeds the v38 base team as six-field cards with prose bodies', async () => {
    const root = await tempProject()
    const cards = (await readdir(join(root, '.mesh/team'))).sort()
    expect(cards).toEqual(['architect.md', 'consultant.md', 'deployer.md', 'developer.md', 'git-manager.md'])
    const validate = getValidator('team-member')
    for (const card of cards) {
      const parsed = parseFrontmatter(await read(root, `.mesh/team/${card}`))
      expect(validate(parsed.data), card).toBe(true)
      expect(Object.keys(parsed.data as object)).toEqual(TEAM_FIELDS.slice(0, 6))
      expect((parsed.data as {id: string}).id).toBe(card.replace(/\.md$/, ''))
      expect(words(parsed.body)).toBeGreaterThan(60)
    }
    const exposure = async (id: string) => (parseFrontmatter(await read(root, `.mesh/team/${id}.md`)).data as {exposure: string}).exposure
    expect(await exposure('consultant')).toBe('external')
    expect(await exposure('architect')).toBe('internal')
    expect(parseFrontmatter(await read(root, '.mesh/team/consultant.md')).body).toMatch(/read-only/)
    expect(parseFrontmatter(await read(root, '.mesh/team/architect.md')).body).toMatch(/coordinate/)
  })

  it('writes the five context files with only title and updated, under the 200-word warning line', async () => {
    const root = await tempProject()
    for (const stem of ['overview', 'product', 'stack', 'architecture', 'constraints']) {
      const parsed = parseFrontmatter(await read(root, `.mesh/context/${stem}.md`))
      expect(parsed.data).toEqual({title: expect.any(String), updated: '2026-03-14'})
      expect(getValidator('context')(parsed.data)).toBe(true)
      expect(words(parsed.body)).toBeLessThan(200)
    }
  })

  it('writes the instructions source with markers and a preamble that teaches the rules, and three identical targets', async () => {
    const root = await tempProject()
    const source = await read(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    const order = [MARKERS.preambleBegin, MARKERS.preambleEnd, MARKERS.operatorBegin, MARKERS.operatorEnd].map((marker) => source.indexOf(marker))
    expect(order.every((at) => at >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    const preamble = source.slice(order[0], order[1])
    for (const rule of ['Conventional Commits', '[<task-id>]', 'Agent: ', 'Model: ', 'Co-authored-by:', 'One concern per commit', 'Never push', '#<id>', '→ working on #<initiative-id> · #<task-id>', '.mesh/modules/<module>/tasks/', 'mesh task move', 'draft', 'dispatchable', 'only the operator takes one out of it', 'mesh task archive']) {
      expect(preamble, rule).toContain(rule)
    }
    // spec Links registry, taught where agents read the rules (issue 20): the same-commit rule and its check.
    expect(preamble).toMatch(/where a module runs or deploys, its branch or its version[^\n]*updates that module's entry in `\.mesh\/public\/links\.yaml`[^\n]*in the same commit\. `mesh validate --commits <range>` checks it\./)
    for (const target of RENDER_TARGETS) expect(await read(root, target)).toBe(source)
    const resources = await read(root, '.mesh/public/RESOURCES.md')
    expect(resources).toContain(MARKERS.resourcesEnd)
    expect(await read(root, '.mesh/STANDARD_VERSION')).toBe('38\n')
  })

  it('writes the deny-list, module folders with README and tasks/, and the docs map and pointer', async () => {
    const root = await tempProject()
    const gitignore = (await read(root, '.gitignore')).split('\n')
    for (const entry of DENY_LIST) expect(gitignore).toContain(entry)
    const files = await tree(root)
    for (const module of ['project', 'deploy', 'docs', 'design', 'general']) {
      expect(files).toContain(`.mesh/modules/${module}/README.md`)
      expect(files).toContain(`.mesh/modules/${module}/tasks/.gitkeep`)
    }
    expect(files).toContain('.mesh/roadmap/initiatives/.gitkeep')
    expect(await read(root, '.mesh/docs/INDEX.md')).toMatch(/^# Docs index/)
    expect(await read(root, '.mesh/docs/governance.md')).toMatch(/https:\/\/mesh\.dev\/standard/)
  })

  it('is idempotent: a second run keeps every file and changes no byte', async () => {
    const root = await tempDir()
    const answers = completeAnswers({name: 'Demo'}, root)
    const first = await scaffoldProject(root, answers, {now: TODAY})
    expect(first.files.every((file) => file.outcome === 'created')).toBe(true)
    const before = await Promise.all((await tree(root)).map(async (path) => [path, await read(root, path)]))
    const second = await scaffoldProject(root, completeAnswers({name: 'Other', hub: 'https://elsewhere.example'}, root), {now: new Date('2027-01-01T00:00:00Z')})
    expect(second.files.map((file) => file.outcome)).toEqual(first.files.map(() => 'kept'))
    const after = await Promise.all((await tree(root)).map(async (path) => [path, await read(root, path)]))
    expect(after).toEqual(before)
  })

  it('keeps what a user wrote: existing files, .gitignore lines, an unmarked CLAUDE.md', async () => {
    const root = await tempDir()
    await writeFile(join(root, '.gitignore'), 'node_modules/\n/.mesh/log\n')
    await writeFile(join(root, 'CLAUDE.md'), 'my own notes\n')
    await mkdir(join(root, '.mesh/context'), {recursive: true})
    await writeFile(join(root, '.mesh/context/overview.md'), '---\ntitle: Mine\nupdated: 2020-01-01\n---\nmine\n')
    const result = await scaffoldProject(root, completeAnswers({}, root), {now: TODAY})
    const outcome = (path: string) => result.files.find((file) => file.path === path)
    expect(outcome('.gitignore')).toMatchObject({outcome: 'updated'})
    expect(outcome('CLAUDE.md')).toMatchObject({outcome: 'kept', note: expect.stringMatching(/markers/)})
    expect(outcome('.mesh/context/overview.md')).toMatchObject({outcome: 'kept'})
    expect(outcome('AGENTS.md')).toMatchObject({outcome: 'created'})
    expect(await read(root, 'CLAUDE.md')).toBe('my own notes\n')
    expect(await read(root, '.mesh/context/overview.md')).toBe('---\ntitle: Mine\nupdated: 2020-01-01\n---\nmine\n')
    const gitignore = await read(root, '.gitignore')
    expect(gitignore.startsWith('node_modules/\n/.mesh/log\n\n# mesh:')).toBe(true)
    // `/.mesh/log` already denies .mesh/log/: not added twice.
    expect(gitignore.split('\n').filter((line) => line.includes('.mesh/log')).length).toBe(1)
  })

  it('makes folders for the modules of a cluster.yaml the user already has', async () => {
    const root = await tempDir()
    await mkdir(join(root, '.mesh/public'), {recursive: true})
    const yaml = 'version: 1\nid: mine\ntype: dev\nname: Mine\ntransport:\n  endpoint: wss://x.example/ws\nmodules:\n  - {id: project, kind: area}\n  - {id: general, kind: area, parent: project}\n  - {id: api, kind: code, path: src/api}\n'
    await writeFile(join(root, '.mesh/public/cluster.yaml'), yaml)
    const result = await scaffoldProject(root, completeAnswers({}, root), {now: TODAY})
    expect(result.files.map((file) => file.path)).toContain('.mesh/modules/api/README.md')
    expect(await read(root, '.mesh/modules/api/README.md')).toContain('src/api')
    expect(await read(root, '.mesh/public/cluster.yaml')).toBe(yaml)
  })
})

describe('scaffoldProject on a file', () => {
  it('refuses a path that is a file, writing nothing', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'file.txt'), 'x')
    await expect(scaffoldProject(join(dir, 'file.txt'), completeAnswers({}, dir))).rejects.toMatchObject({code: 'usage_dir_invalid'})
    expect(await readdir(dir)).toEqual(['file.txt'])
  })

  it('keeps a .gitignore that is not a file and says what to do, instead of failing half-way', async () => {
    const dir = await tempDir()
    await mkdir(join(dir, '.gitignore'))
    const result = await scaffoldProject(dir, completeAnswers({}, dir))
    expect(result.files.find((file) => file.path === '.gitignore')).toEqual({path: '.gitignore', outcome: 'kept', note: expect.stringMatching(/not a file/)})
    expect(result.files.filter((file) => file.outcome === 'created')).toHaveLength(32)
  })
})
