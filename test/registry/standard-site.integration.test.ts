import {mkdir, mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {tempProject} from '../standard/scaffold/temp-project.js'
import {json, runCli, spawnCli, type SpawnedCli} from '../support/cli.js'

let served: SpawnedCli | undefined
afterEach(async () => {
  await served?.stop()
  served = undefined
})

async function siteDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-site-'))
  await mkdir(join(dir, 'standard'))
  await writeFile(join(dir, 'standard', 'version'), '40\n')
  await writeFile(join(dir, 'standard', 'CHANGELOG.md'), '# Changelog\n\n## v40\nThe fortieth.\n\n## v39\nThe thirty-ninth.\n')
  await writeFile(join(dir, 'resources.md'), '# Network resources\n\n- Hub: https://hub.example\n')
  return dir
}

describe('mesh serve registry --site-dir (built CLI)', () => {
  it('mesh standard status pointed at the registry reports the version and changelog it serves', async () => {
    const data = await mkdtemp(join(tmpdir(), 'mesh-registry-'))
    served = spawnCli(['serve', 'registry', '--port', '0', '--host', '127.0.0.1', '--data', data, '--json', '--site-dir', await siteDir()])
    const listening = await served.nextJson()
    expect(listening.event).toBe('listening')
    const root = await tempProject()
    const status = json(await runCli(['standard', 'status', '--json', '-C', root], {env: {MESH_STANDARD_URL: `${listening.url}/standard/version`}}))
    expect(status).toMatchObject({installed: 38, canonical: 40, state: 'behind', changelog_source: 'remote'})
    const text = await runCli(['standard', 'status', '-C', root], {env: {MESH_STANDARD_URL: `${listening.url}/standard/version`}})
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/v39 {2}The thirty-ninth\./)
    expect(text.stdout).toMatch(/v40 {2}The fortieth\./)
  })

  it('refuses to start when a --site-dir file is missing: a clear message, non-zero exit', async () => {
    const data = await mkdtemp(join(tmpdir(), 'mesh-registry-'))
    const empty = await mkdtemp(join(tmpdir(), 'mesh-site-'))
    const result = await runCli(['serve', 'registry', '--port', '0', '--data', data, '--site-dir', empty])
    expect(result.code).not.toBe(0)
    // errorText: oclif wraps the message at 80 columns, possibly inside the path.
    expect(result.errorText).toContain(`${join(empty, 'standard', 'version')} is missing`)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
