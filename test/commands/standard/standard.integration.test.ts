import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli} from '../../support/cli.js'

let server: Server | undefined
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

async function versionSite(version: string): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/standard/version') res.end(version)
    else if (req.url === '/standard/CHANGELOG.md') res.end('## v39\nThe thirty-ninth.\n## v38\nold\n')
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('mesh standard (built CLI)', () => {
  it('status reads the canonical version from --url and the env var', async () => {
    const root = await tempProject()
    const base = await versionSite('39\n')
    const byFlag = await runCli(['standard', 'status', '--url', `${base}/standard/version`, '-C', root])
    expect(byFlag.code).toBe(0)
    expect(byFlag.stdout).toContain('installed  v38')
    expect(byFlag.stdout).toContain(`canonical  v39  (${base}/standard/version)`)
    expect(byFlag.stdout).toMatch(/Behind by 1 version/)
    expect(byFlag.stdout).toMatch(/v39 {2}The thirty-ninth\./)
    const byEnv = json(await runCli(['standard', 'status', '--json', '-C', root], {env: {MESH_STANDARD_URL: `${base}/standard/version`}}))
    expect(byEnv).toMatchObject({installed: 38, canonical: 39, state: 'behind', changelog_source: 'remote'})
  })

  it('status offline says so and still lists the built-in entries', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '36\n')
    const result = await runCli(['standard', 'status', '--url', 'http://127.0.0.1:9/standard/version', '--timeout', '1000', '-C', root])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('installed  v36')
    expect(result.stdout).toMatch(/canonical {2}unknown: offline/)
    expect(result.stdout).toMatch(/Changelog \(built-in\):\n {2}v37 .*\n {2}v38 /)
  })

  it('migrate --dry-run reports, migrate rewrites cards and bumps the version', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '36\n')
    const card = '---\nid: old\ntitle: Old\nname: Old one\nowns: [x]\n---\nProse stays.\n'
    await writeFile(join(root, '.mesh/team/old.md'), card)
    const dry = await runCli(['standard', 'migrate', '--dry-run', '-C', root])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/^would change {2}\.mesh\/team\/old\.md {2}\(dropped name, owns\)$/m)
    expect(dry.stdout).toMatch(/would raise STANDARD_VERSION v36 → v38/)
    expect(await readFile(join(root, '.mesh/team/old.md'), 'utf8')).toBe(card)
    const real = json(await runCli(['standard', 'migrate', '--json', '-C', root]))
    expect(real).toMatchObject({from: 36, to: 38, bumped: true, changed: [{path: '.mesh/team/old.md', dropped: ['name', 'owns']}]})
    expect(await readFile(join(root, '.mesh/team/old.md'), 'utf8')).toBe('---\nid: old\ntitle: Old\n---\nProse stays.\n')
    expect(await readFile(join(root, '.mesh/STANDARD_VERSION'), 'utf8')).toBe('38\n')
    const validate = json(await runCli(['validate', root, '--json']))
    expect(validate.findings).toEqual([])
  })

  it('refuses a project newer than this mesh with exit 1', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '50\n')
    const result = await runCli(['standard', 'migrate', '-C', root])
    expect(result.code).toBe(1)
    expect(result.errorText).toMatch(/newer than the v38 this mesh knows/)
  })
})
