/**
 * The bar of issue 23 for `mesh up`: on a fresh `mesh init` project the
 * daemon joins the project's cluster on the embedded relay (within 5 s), the
 * table names the real cluster id, and `mesh daemon status` has no warning.
 * Through the binary, with the daemon's transport on (the test harness
 * otherwise turns it off).
 */
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'

const TRANSPORT_ON = {MESH_DAEMON_TRANSPORT: ''}
let dirs: string[] = []
let network: SpawnedCli | undefined
afterEach(async () => {
  await network?.stop()
  network = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

/** A fresh project as an operator has it: `mesh init` in a git repository with a remote, committed and pushed. */
async function freshProject(): Promise<string> {
  const base = mkdtempSync(join(tmpdir(), 'mesh-up-cluster-'))
  dirs.push(base)
  const root = join(base, 'demo')
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=op@example.com', '-c', 'user.name=op', ...args], {cwd: root, stdio: 'pipe'})
  execFileSync('git', ['init', '-q', '--bare', join(base, 'origin.git')])
  execFileSync('git', ['init', '-q', '-b', 'main', root])
  const init = await runCli(['init', root, '--name', 'Demo', '--yes'])
  expect(init.code).toBe(0)
  git('add', '-A')
  git('commit', '-qm', 'mesh init')
  git('remote', 'add', 'origin', join(base, 'origin.git'))
  git('push', '-q', '-u', 'origin', 'main')
  return root
}

async function until<T>(what: string, check: () => Promise<T | undefined>, limitMs: number): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('mesh up and the project cluster', () => {
  it('joins the daemon to the embedded relay with no hand edit, names the cluster, and warns of nothing', async () => {
    const root = await freshProject()
    const clusterYaml = readFileSync(join(root, '.mesh/public/cluster.yaml'), 'utf8')
    network = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0', '--json'], {cwd: root, env: TRANSPORT_ON})
    const up = JSON.parse(await network.waitFor((line) => line.includes('"event":"up"')))
    expect(up.cluster.cluster_id).toMatch(/^c_/)
    expect(up.relay.url).toBe(`${up.registry.url.replace(/^http/, 'ws')}/v1/clusters/${up.cluster.cluster_id}/ws`)
    expect(up.warnings).toEqual([])

    // The bar: connected to the embedded relay within 5 s of the start line.
    const transport = await until(
      'the daemon connected to the embedded relay',
      async () => {
        const health = (await (await fetch(`${up.daemon.url}/health`)).json()) as any
        return health.transport.state === 'connected' ? health.transport : undefined
      },
      5_000,
    )
    expect(transport).toMatchObject({endpoint: up.relay.url, using: 'embedded', handle: 'daemon:demo'})

    const status = await runCli(['daemon', 'status'], {cwd: join(root, '.mesh', 'modules')})
    expect(status.code).toBe(0)
    expect(status.stdout).toContain(`transport: connected to ${up.relay.url}`)
    expect(status.stdout).not.toMatch(/warning/i)
    // Nothing committed changed; the cluster's tokens stay beside the relay's data, 0600.
    expect(readFileSync(join(root, '.mesh/public/cluster.yaml'), 'utf8')).toBe(clusterYaml)
    expect(statSync(join(root, '.mesh/.runtime/network/cluster.json')).mode & 0o777).toBe(0o600)
    expect(execFileSync('git', ['status', '--porcelain'], {cwd: root, encoding: 'utf8'})).toBe('')

    // The next run adopts the same cluster; its table names it.
    expect(await network.stop('SIGINT')).toBe(0)
    network = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0'], {cwd: root, env: TRANSPORT_ON})
    const relayRow = await network.waitFor((line) => line.trim().startsWith('relay'))
    expect(relayRow).toContain(`/v1/clusters/${up.cluster.cluster_id}/ws`)
    expect(relayRow).toContain('kept from before')
    expect(relayRow).not.toContain('<cluster_id>')
  })

  it('says "not linked" calmly when the daemon runs without mesh up or a link', async () => {
    const root = await freshProject()
    network = spawnCli(['serve', '--port', '0'], {cwd: root, env: TRANSPORT_ON})
    await network.waitFor(/127\.0\.0\.1/)
    const status = await runCli(['daemon', 'status'], {cwd: root})
    expect(status.stdout).toContain('transport: not linked: `mesh cluster link`')
    expect(status.stdout).not.toMatch(/warning/i)
  })
})
