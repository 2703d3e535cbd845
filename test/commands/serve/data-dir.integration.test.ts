/**
 * One default data folder for both servers, `./mesh-data` in the working
 * directory (env MESH_DATA), which `mesh registry admin-key` reads too; a
 * hint at start when only an old default folder holds a database.
 */
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, SERVICES, startServer, type RunningServer, type Service} from '../../support/cli.js'

const running: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

/** A working directory with its own HOME, so ~/.mesh/data is the test's. */
async function workspace() {
  const cwd = await mkdtemp(join(tmpdir(), 'mesh-data-dir-'))
  dirs.push(cwd)
  await mkdir(join(cwd, 'home'))
  return {cwd, env: {HOME: join(cwd, 'home')}}
}
async function startIn(service: Service, w: {cwd: string; env: NodeJS.ProcessEnv}, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const server = await startServer(service, ['--port', '0', '--json', ...args], {cwd: w.cwd, env: {...w.env, ...env}})
  running.push(server)
  return server
}
async function stop(server: RunningServer) {
  server.child.kill('SIGTERM')
  expect(await server.exited).toBe(0)
}
const HINT = /does not exist yet, but (\S+) holds data of an earlier default/

describe.each(SERVICES)('mesh serve %s', (service) => {
  it('keeps its data in ./mesh-data of the working directory by default, or in $MESH_DATA', async () => {
    const w = await workspace()
    const server = await startIn(service, w)
    expect(JSON.parse(server.lines[0]).data).toBe(join(w.cwd, 'mesh-data'))
    await stop(server)
    expect(existsSync(join(w.cwd, 'mesh-data', 'mesh.db'))).toBe(true)
    expect(server.stderr()).not.toMatch(HINT)

    const fromEnv = await startIn(service, w, [], {MESH_DATA: join(w.cwd, 'elsewhere')})
    expect(JSON.parse(fromEnv.lines[0]).data).toBe(join(w.cwd, 'elsewhere'))
    await stop(fromEnv)
    expect(existsSync(join(w.cwd, 'elsewhere', 'mesh.db'))).toBe(true)
  })

  it('warns that MESH_DATA_DIR (the registry\'s old env name) is no longer read', async () => {
    const w = await workspace()
    const legacy = await startIn(service, w, [], {MESH_DATA_DIR: '/srv/old-registry'})
    await stop(legacy)
    expect(JSON.parse(legacy.lines[0]).data).toBe(join(w.cwd, 'mesh-data'))
    expect(legacy.stderr()).toContain('MESH_DATA_DIR is no longer read; set MESH_DATA=/srv/old-registry')
    const both = await startIn(service, w, [], {MESH_DATA_DIR: '/srv/old-registry', MESH_DATA: join(w.cwd, 'mesh-data')})
    await stop(both)
    expect(both.stderr()).not.toContain('MESH_DATA_DIR')
  })

  it('hints at the old default folders when ./mesh-data does not exist yet', async () => {
    const w = await workspace()
    await mkdir(join(w.cwd, 'mesh-registry-data'))
    await writeFile(join(w.cwd, 'mesh-registry-data', 'mesh.db'), '')
    const first = await startIn(service, w)
    await stop(first)
    expect(HINT.exec(first.stderr())?.[1]).toBe(join(w.cwd, 'mesh-registry-data'))
    expect(first.stderr()).toContain(`--data ${join(w.cwd, 'mesh-registry-data')}`)
    // Once ./mesh-data exists, or with --data given, there is nothing to say.
    const again = await startIn(service, w)
    await stop(again)
    expect(again.stderr()).not.toMatch(HINT)

    const home = await workspace()
    await mkdir(join(home.cwd, 'home', '.mesh', 'data'), {recursive: true})
    await writeFile(join(home.cwd, 'home', '.mesh', 'data', 'mesh.db'), '')
    const relayOld = await startIn(service, home)
    await stop(relayOld)
    expect(HINT.exec(relayOld.stderr())?.[1]).toBe(join(home.cwd, 'home', '.mesh', 'data'))
    await rm(join(home.cwd, 'mesh-data'), {recursive: true})
    const explicit = await startIn(service, home, ['--data', './mesh-data'])
    await stop(explicit)
    expect(explicit.stderr()).not.toMatch(HINT)
  })
})

describe('mesh registry admin-key', () => {
  it('reads the key from the same default folder the registry wrote it to', async () => {
    const w = await workspace()
    await stop(await startIn('registry', w))
    const printed = await runCli(['registry', 'admin-key'], {cwd: w.cwd, env: w.env})
    expect(printed.code, printed.stderr).toBe(0)
    expect(printed.stdout.trim()).toBe((await readFile(join(w.cwd, 'mesh-data', 'registry-admin.key'), 'utf8')).trim())
  })
})
