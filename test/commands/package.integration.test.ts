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

  it('--help lists each command once: a command with subcommands as its topic, a one-word command as a command', async () => {
    const {commands} = JSON.parse(await readFile(join(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, {hidden?: boolean}>}
    const result = await runCli(['--help'], {env: {OCLIF_COLUMNS: '1000'}})
    const section = (title: string) => (result.stdout.split(`${title}\n`)[1] ?? '').split('\n\n')[0].split('\n').map((line) => line.trim().split(/\s+/)[0])
    const topics = section('TOPICS')
    const listed = [...topics, ...section('COMMANDS')]
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([])
    // Every first word of a command is there once (the plugins plugin's `plugins` included).
    const firstWords = [...new Set([...Object.keys(commands).map((id) => id.split(':')[0]), 'plugins'])].sort()
    expect([...listed].sort()).toEqual(firstWords)
    expect(topics).toEqual(expect.arrayContaining(['serve', 'task', 'plugins']))
    expect(topics).not.toContain('ask')
    // A topic's own help still lists its subcommands.
    expect((await runCli(['serve', '--help'])).stdout).toMatch(/^ {2}serve registry\b/m)
  })
})
