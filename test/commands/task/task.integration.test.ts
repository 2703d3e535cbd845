import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli} from '../../support/cli.js'

describe('mesh task / initiative (built CLI)', () => {
  it('creates, lists, shows and moves tasks; the project stays valid', async () => {
    const root = await tempProject()
    const initiative = await runCli(['initiative', 'create', '--title', 'Onboarding', '-C', root, '--json'])
    expect(initiative.code).toBe(0)
    expect(json(initiative).id).toBe('onboarding')
    const created = await runCli(['task', 'create', '--module', 'general', '--title', 'Write the welcome mail', '--initiative', 'onboarding', '--priority', 'high', '-C', root])
    expect(created.code).toBe(0)
    expect(created.stdout).toBe('created GEN1  .mesh/modules/general/tasks/GEN1-write-the-welcome-mail.md\n')
    await runCli(['task', 'create', '-m', 'deploy', '-t', 'Stage it', '--depends-on', 'GEN1', '-C', root])

    const table = await runCli(['task', 'list', '-C', root])
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PRIORITY\s+MODULE\s+OWNER\s+INITIATIVE\s+TITLE$/)
    expect(table.stdout).toMatch(/^GEN1\s+backlog\s+high\s+general\s+architect\s+onboarding\s+Write the welcome mail$/m)
    const listed = json(await runCli(['task', 'list', '--module', 'deploy', '--json', '-C', root]))
    expect(listed).toEqual([expect.objectContaining({id: 'DEP1', depends_on: ['GEN1']})])

    const moved = await runCli(['task', 'move', 'GEN1', 'doing', '-C', root])
    expect(moved.stdout).toBe('GEN1: backlog → active (dispatchable)\n')
    const done = json(await runCli(['task', 'move', 'GEN1', 'done', '--json', '-C', root]))
    expect(done).toMatchObject({to: 'done', dispatchable: false, completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)})
    const shown = await runCli(['task', 'show', 'GEN1', '-C', root])
    expect(shown.stdout).toMatch(/^GEN1 {2}Write the welcome mail$/m)
    expect(shown.stdout).toContain('## Done when')

    const initiatives = await runCli(['initiative', 'list', '-C', root])
    expect(initiatives.stdout).toMatch(/^onboarding\s+active\s+architect\s+1\/1\s+Onboarding$/m)
    const validate = json(await runCli(['validate', root, '--json']))
    expect(validate.findings).toEqual([])
  })

  it('two processes creating at once get different ids', async () => {
    const root = await tempProject()
    const archived = join(root, '.mesh/modules/general/log/2026-01')
    await mkdir(archived, {recursive: true})
    await writeFile(join(archived, 'GEN4-old.md'), '---\nid: GEN4\n---\n')
    const results = await Promise.all(
      Array.from({length: 4}, (_, i) => runCli(['task', 'create', '--module', 'general', '--title', `Parallel ${i}`, '--json', '-C', root])),
    )
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0])
    expect(results.map((result) => json(result).id).sort()).toEqual(['GEN5', 'GEN6', 'GEN7', 'GEN8'])
  })

  it('finds the project from a subfolder, and fails clearly outside one', async () => {
    const root = await tempProject()
    const created = await runCli(['task', 'create', '-m', 'general', '-t', 'From below', '--json'], {cwd: join(root, '.mesh/modules')})
    expect(json(created).id).toBe('GEN1')
    const outside = await runCli(['task', 'list'], {cwd: '/'})
    expect(outside.code).toBe(1)
    expect(outside.errorText).toMatch(/No \.mesh\/ folder in \/ or above it; run `mesh init` first/)
  })

  it('refuses bad input with one clear line: exit 2 for a bad value, 1 for a refused operation', async () => {
    const root = await tempProject()
    await runCli(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
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
      const result = await runCli([...args, '-C', root])
      expect(result.code, args.join(' ')).toBe(code)
      expect(result.errorText, args.join(' ')).toMatch(message)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
    await writeFile(join(root, '.mesh/modules/general/tasks/GEN7-broken.md'), '---\nid: GEN7\ntitle: [x\n---\n')
    const broken = await runCli(['task', 'show', 'GEN7', '-C', root])
    expect(broken.code).toBe(0)
    expect(broken.errorText).toMatch(/^Warning: \.mesh\/modules\/general\/tasks\/GEN7-broken\.md: .* \(line 4, column 1\); run `mesh validate`\.$/)
    expect((await runCli(['task', 'list', '-C', root])).errorText).toMatch(/^Warning: .*GEN7-broken\.md/)
    const missingDir = await runCli(['task', 'list', '-C', join(root, 'no-such-folder')])
    expect(missingDir.code).toBe(2)
    expect(missingDir.errorText).toMatch(/No such directory: .*no-such-folder/)
    const jsonError = await runCli(['task', 'move', 'GEN1', 'finished', '--json', '-C', root])
    expect(json(jsonError)).toEqual({error: {code: 'usage_status_invalid', message: expect.any(String), field: 'status'}})
  })

  it('deps prints a tree, and exits 1 with the graph when there is a cycle', async () => {
    const root = await tempProject()
    await runCli(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
    await runCli(['task', 'create', '-m', 'general', '-t', 'B', '--depends-on', 'GEN1', '-C', root])
    const tree = await runCli(['task', 'deps', '-C', root])
    expect(tree.code).toBe(0)
    expect(tree.stdout).toBe('GEN2 B [backlog]\n└── GEN1 A [backlog]\n')
    const path = join(root, '.mesh/modules/general/tasks/GEN1-a-task.md')
    await writeFile(path, (await readFile(path, 'utf8')).replace('updated:', 'depends_on: [GEN2]\nupdated:'))
    const cyclic = await runCli(['task', 'deps', '--json', '-C', root])
    expect(cyclic.code).toBe(1)
    expect(json(cyclic)).toMatchObject({cycles: [['GEN1', 'GEN2']], edges: [{from: 'GEN1', to: 'GEN2'}, {from: 'GEN2', to: 'GEN1'}]})
    const text = await runCli(['task', 'deps', '-C', root])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('cycle: GEN1 → GEN2 → GEN1')
    expect(text.errorText).toMatch(/1 dependency cycle/)
  })
})
