import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../standard/scaffold/temp-project.js'
import {json, mesh} from './standard-cli.js'

describe('mesh task / initiative / roadmap (built CLI)', () => {
  it('creates, lists, shows and moves tasks; the project stays valid', async () => {
    const root = await tempProject()
    const initiative = await mesh(['initiative', 'create', '--title', 'Onboarding', '-C', root, '--json'])
    expect(initiative.code).toBe(0)
    expect(json(initiative).id).toBe('onboarding')
    const created = await mesh(['task', 'create', '--module', 'general', '--title', 'Write the welcome mail', '--initiative', 'onboarding', '--priority', 'high', '-C', root])
    expect(created.code).toBe(0)
    expect(created.stdout).toBe('created GEN1  .mesh/modules/general/tasks/GEN1-write-the-welcome-mail.md\n')
    await mesh(['task', 'create', '-m', 'deploy', '-t', 'Stage it', '--depends-on', 'GEN1', '-C', root])

    const table = await mesh(['task', 'list', '-C', root])
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PRIORITY\s+MODULE\s+OWNER\s+INITIATIVE\s+TITLE$/)
    expect(table.stdout).toMatch(/^GEN1\s+backlog\s+high\s+general\s+architect\s+onboarding\s+Write the welcome mail$/m)
    const listed = json(await mesh(['task', 'list', '--module', 'deploy', '--json', '-C', root]))
    expect(listed).toEqual([expect.objectContaining({id: 'DEP1', depends_on: ['GEN1']})])

    const moved = await mesh(['task', 'move', 'GEN1', 'doing', '-C', root])
    expect(moved.stdout).toBe('GEN1: backlog → active (dispatchable)\n')
    const done = json(await mesh(['task', 'move', 'GEN1', 'done', '--json', '-C', root]))
    expect(done).toMatchObject({to: 'done', dispatchable: false, completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)})
    const shown = await mesh(['task', 'show', 'GEN1', '-C', root])
    expect(shown.stdout).toMatch(/^GEN1 {2}Write the welcome mail$/m)
    expect(shown.stdout).toContain('## Done when')

    const initiatives = await mesh(['initiative', 'list', '-C', root])
    expect(initiatives.stdout).toMatch(/^onboarding\s+active\s+architect\s+1\/1\s+Onboarding$/m)
    const validate = json(await mesh(['validate', root, '--json']))
    expect(validate.findings).toEqual([])
  })

  it('two processes creating at once get different ids', async () => {
    const root = await tempProject()
    const archived = join(root, '.mesh/modules/general/log/2026-01')
    await mkdir(archived, {recursive: true})
    await writeFile(join(archived, 'GEN4-old.md'), '---\nid: GEN4\n---\n')
    const results = await Promise.all(
      Array.from({length: 4}, (_, i) => mesh(['task', 'create', '--module', 'general', '--title', `Parallel ${i}`, '--json', '-C', root])),
    )
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0])
    expect(results.map((result) => json(result).id).sort()).toEqual(['GEN5', 'GEN6', 'GEN7', 'GEN8'])
  })

  it('finds the project from a subfolder, and fails clearly outside one', async () => {
    const root = await tempProject()
    const created = await mesh(['task', 'create', '-m', 'general', '-t', 'From below', '--json'], {cwd: join(root, '.mesh/modules')})
    expect(json(created).id).toBe('GEN1')
    const outside = await mesh(['task', 'list'], {cwd: '/'})
    expect(outside.code).toBe(1)
    expect(outside.errorText).toMatch(/No \.mesh\/ folder in \/ or above it; run `mesh init` first/)
  })

  it('refuses bad input with one clear line: exit 2 for a bad value, 1 for a refused operation', async () => {
    const root = await tempProject()
    await mesh(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
    const cases: Array<[string[], number, RegExp]> = [
      [['task', 'create', '-m', 'nope', '-t', 'x'], 1, /No module "nope" in cluster.yaml/],
      [['task', 'create', '-m', 'general'], 2, /Missing required flag title/],
      [['task', 'create', '-m', 'general', '-t', 'x', '--slug', 'Bad'], 2, /slug "Bad"/],
      [['task', 'create', '-m', 'general', '-t', ' '], 2, /A task title is one non-empty line/],
      [['task', 'create', '-m', 'general', '-t', 'x', '--status', 'finished'], 2, /Unknown status "finished"/],
      [['task', 'create', '-m', 'general', '-t', 'x', '--priority', 'urgent'], 2, /Expected --priority=urgent to be one of/],
      [['task', 'move', 'GEN1', 'finished'], 2, /Unknown status "finished"/],
      [['task', 'move', 'GEN9', 'done'], 1, /No task "GEN9"/],
      [['task', 'show', 'GEN9'], 1, /No task "GEN9"/],
      [['initiative', 'create', '-t', 'x', '--id', 'Bad'], 2, /id "Bad"/],
      [['initiative', 'create', '-t', 'x', '--status', 'next'], 2, /Expected --status=next to be one of/],
    ]
    for (const [args, code, message] of cases) {
      const result = await mesh([...args, '-C', root])
      expect(result.code, args.join(' ')).toBe(code)
      expect(result.errorText, args.join(' ')).toMatch(message)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
    await writeFile(join(root, '.mesh/modules/general/tasks/GEN7-broken.md'), '---\nid: GEN7\ntitle: [x\n---\n')
    const broken = await mesh(['task', 'show', 'GEN7', '-C', root])
    expect(broken.code).toBe(0)
    expect(broken.errorText).toMatch(/^Warning: \.mesh\/modules\/general\/tasks\/GEN7-broken\.md: .* \(line 4, column 1\); run `mesh validate`\.$/)
    expect((await mesh(['task', 'list', '-C', root])).errorText).toMatch(/^Warning: .*GEN7-broken\.md/)
    const missingDir = await mesh(['task', 'list', '-C', join(root, 'no-such-folder')])
    expect(missingDir.code).toBe(2)
    expect(missingDir.errorText).toMatch(/No such directory: .*no-such-folder/)
    const jsonError = await mesh(['task', 'move', 'GEN1', 'finished', '--json', '-C', root])
    expect(json(jsonError)).toEqual({error: {code: 'usage_status_invalid', message: expect.any(String), field: 'status'}})
  })

  it('deps prints a tree, and exits 1 with the graph when there is a cycle', async () => {
    const root = await tempProject()
    await mesh(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
    await mesh(['task', 'create', '-m', 'general', '-t', 'B', '--depends-on', 'GEN1', '-C', root])
    const tree = await mesh(['task', 'deps', '-C', root])
    expect(tree.code).toBe(0)
    expect(tree.stdout).toBe('GEN2 B [backlog]\n└── GEN1 A [backlog]\n')
    const path = join(root, '.mesh/modules/general/tasks/GEN1-a-task.md')
    await writeFile(path, (await readFile(path, 'utf8')).replace('updated:', 'depends_on: [GEN2]\nupdated:'))
    const cyclic = await mesh(['task', 'deps', '--json', '-C', root])
    expect(cyclic.code).toBe(1)
    expect(json(cyclic)).toMatchObject({cycles: [['GEN1', 'GEN2']], edges: [{from: 'GEN1', to: 'GEN2'}, {from: 'GEN2', to: 'GEN1'}]})
    const text = await mesh(['task', 'deps', '-C', root])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('cycle: GEN1 → GEN2 → GEN1')
    expect(text.errorText).toMatch(/1 dependency cycle/)
  })

  it('roadmap build writes the same bytes twice', async () => {
    const root = await tempProject()
    await mesh(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
    const first = await mesh(['roadmap', 'build', '-C', root])
    expect(first.stdout).toMatch(/^written {4}\.mesh\/roadmap\/state\.json$/m)
    const bytes = await readFile(join(root, '.mesh/roadmap/state.js'), 'utf8')
    expect(bytes.startsWith('window.MESH_ROADMAP = {')).toBe(true)
    const second = json(await mesh(['roadmap', 'build', '--json', '-C', root]))
    expect(second.files.map((file: {changed: boolean}) => file.changed)).toEqual([false, false])
    expect(await readFile(join(root, '.mesh/roadmap/state.js'), 'utf8')).toBe(bytes)
  })

  it('roadmap build gives the same bytes whatever the locale', async () => {
    const root = await tempProject()
    const cluster = join(root, '.mesh/public/cluster.yaml')
    await writeFile(cluster, `${await readFile(cluster, 'utf8')}  - id: yard\n    kind: code\n    path: yard\n  - id: jobs\n    kind: code\n    path: jobs\n`)
    await mesh(['initiative', 'create', '-t', 'Yak', '-C', root])
    await mesh(['initiative', 'create', '-t', 'Jam', '-C', root])
    for (const module of ['yard', 'jobs']) await mesh(['task', 'create', '-m', module, '-t', 'One', '-C', root])
    // Under lt_LT a locale-aware sort puts "y" before "j".
    await mesh(['roadmap', 'build', '-C', root], {env: {LC_ALL: 'en_US.UTF-8', LANG: 'en_US.UTF-8'}})
    const english = await readFile(join(root, '.mesh/roadmap/state.json'), 'utf8')
    const lithuanian = json(await mesh(['roadmap', 'build', '--json', '-C', root], {env: {LC_ALL: 'lt_LT.UTF-8', LANG: 'lt_LT.UTF-8'}}))
    expect(lithuanian.files.map((file: {changed: boolean}) => file.changed)).toEqual([false, false])
    expect(await readFile(join(root, '.mesh/roadmap/state.json'), 'utf8')).toBe(english)
    const state = JSON.parse(english)
    expect(state.tasks.map((task: {module: string}) => task.module).filter((module: string) => module === 'jobs' || module === 'yard')).toEqual(['jobs', 'yard'])
    expect(state.initiatives.map((initiative: {id: string}) => initiative.id)).toEqual(['jam', 'yak'])
  })
})
