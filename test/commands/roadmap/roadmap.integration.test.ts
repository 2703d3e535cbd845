import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli} from '../../support/cli.js'

describe('mesh roadmap (built CLI)', () => {
  it('roadmap build writes the same bytes twice', async () => {
    const root = await tempProject()
    await runCli(['task', 'create', '-m', 'general', '-t', 'A', '-C', root])
    const first = await runCli(['roadmap', 'build', '-C', root])
    expect(first.stdout).toMatch(/^written {4}\.mesh\/roadmap\/state\.json$/m)
    const bytes = await readFile(join(root, '.mesh/roadmap/state.js'), 'utf8')
    expect(bytes.startsWith('window.MESH_ROADMAP = {')).toBe(true)
    const second = json(await runCli(['roadmap', 'build', '--json', '-C', root]))
    expect(second.files.map((file: {changed: boolean}) => file.changed)).toEqual([false, false])
    expect(await readFile(join(root, '.mesh/roadmap/state.js'), 'utf8')).toBe(bytes)
  })

  it('roadmap build gives the same bytes whatever the locale', async () => {
    const root = await tempProject()
    const cluster = join(root, '.mesh/public/cluster.yaml')
    await writeFile(cluster, `${await readFile(cluster, 'utf8')}  - id: yard\n    kind: code\n    path: yard\n  - id: jobs\n    kind: code\n    path: jobs\n`)
    await runCli(['initiative', 'create', '-t', 'Yak', '-C', root])
    await runCli(['initiative', 'create', '-t', 'Jam', '-C', root])
    for (const module of ['yard', 'jobs']) await runCli(['task', 'create', '-m', module, '-t', 'One', '-C', root])
    // Under lt_LT a locale-aware sort puts "y" before "j".
    await runCli(['roadmap', 'build', '-C', root], {env: {LC_ALL: 'en_US.UTF-8', LANG: 'en_US.UTF-8'}})
    const english = await readFile(join(root, '.mesh/roadmap/state.json'), 'utf8')
    const lithuanian = json(await runCli(['roadmap', 'build', '--json', '-C', root], {env: {LC_ALL: 'lt_LT.UTF-8', LANG: 'lt_LT.UTF-8'}}))
    expect(lithuanian.files.map((file: {changed: boolean}) => file.changed)).toEqual([false, false])
    expect(await readFile(join(root, '.mesh/roadmap/state.json'), 'utf8')).toBe(english)
    const state = JSON.parse(english)
    expect(state.tasks.map((task: {module: string}) => task.module).filter((module: string) => module === 'jobs' || module === 'yard')).toEqual(['jobs', 'yard'])
    expect(state.initiatives.map((initiative: {id: string}) => initiative.id)).toEqual(['jam', 'yak'])
  })
})
