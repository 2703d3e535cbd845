import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../standard/scaffold/temp-project.js'
import {json, REPO_ROOT, runCli} from '../support/cli.js'

// The package as a user meets it (issue 2, Deliver 1): one `mesh` binary, @oclif/plugin-plugins wired in.
describe('the mesh package (built CLI)', () => {
  it('--version prints mesh/<package version>', async () => {
    const {version} = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8'))
    const result = await runCli(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^mesh/${version.replace(/\./g, '\\.')} \\S+ node-v\\d+`))
  })

  it('`mesh plugins` is wired in and lists none on a fresh machine', async () => {
    const home = await tempDir('mesh-home-')
    const env = {HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache')}
    const listed = await runCli(['plugins'], {env})
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/No plugins installed/)
    const plugins = json<Array<{name: string; type: string}>>(await runCli(['plugins', '--json'], {env}))
    expect(plugins.map((plugin) => [plugin.name, plugin.type])).toEqual([['mesh', 'core'], ['@oclif/plugin-plugins', 'core']])
    const help = await runCli(['plugins', '--help'], {env})
    expect(help.stdout).toMatch(/plugins install/)
  })

  it('--help lists the standard commands', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    for (const command of ['init', 'validate', 'render', 'task', 'initiative', 'roadmap', 'standard', 'plugins']) expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
  })
})
