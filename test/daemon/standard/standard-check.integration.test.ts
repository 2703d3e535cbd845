import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {createDaemon, type Daemon} from '../../../src/daemon/daemon.js'
import {standardCheckArea, versionUrlOf, type StandardCheckArea, type StandardCheckOptions} from '../../../src/daemon/standard-check/index.js'
import {CLUSTER, makeRepo, type FixtureRepo} from '../../standard/fixtures.js'
import {startHarness} from '../harness.js'
import {shippedStandardSite} from '../../../src/standard/site.js'
import {startSiteServer} from '../../support/site-server.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A tiny site: `/standard/version` answers `body`; every request is counted. */
async function site(body: string | (() => string)): Promise<{base: string; requests: string[]; onRequest(count: number): Promise<void>; close(): Promise<void>}> {
  const requests: string[] = []
  const waiters: Array<{count: number; resolve: () => void}> = []
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '')
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve()
    if (request.url === '/standard/version') response.writeHead(200, {'content-type': 'text/plain'}).end(typeof body === 'function' ? body() : body)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as {port: number}).port}`
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  cleanups.push(close)
  return {base, requests, onRequest: (count) => new Promise<void>((resolve) => (requests.length >= count ? resolve() : waiters.push({count, resolve}))), close}
}

async function setup(repo: FixtureRepo, options: StandardCheckOptions): Promise<{daemon: Daemon; area: StandardCheckArea; lines(): string[]}> {
  cleanups.push(() => repo.cleanup())
  const daemon = await createDaemon({root: repo.root, areas: []})
  const area = standardCheckArea(daemon.context, options)
  cleanups.push(() => daemon.service.close())
  cleanups.push(() => area.close?.())
  return {daemon, area, lines: () => daemon.context.debug.tail({lastSecs: 3600, tags: ['standard.check']}).events.map((event) => event.msg)}
}

const GAP = 'standard v38 installed, v40 published: run `mesh standard status`'

describe('standard catch-up', () => {
  it('reports a gap to the published version, and drops it once the project catches up', async () => {
    const remote = await site('40\n')
    const repo = makeRepo()
    const {area, lines} = await setup(repo, {env: {MESH_STANDARD_URL: `${remote.base}/standard/version`}})
    expect(await area.checkNow()).toMatchObject({state: 'checked', installed: 38, published: 40, source: 'env'})
    expect(area.warnings?.()).toEqual([GAP])
    expect(lines()).toEqual([`v38 installed, v40 published (${remote.base}/standard/version, from env)`])
    writeFileSync(join(repo.root, '.mesh/STANDARD_VERSION'), '40\n')
    expect(area.warnings?.()).toEqual([])
  })

  it('finds the site in cluster.yaml bootstrap.standard, else in mesh.json hub.docs', async () => {
    const remote = await site('40')
    const byCluster = await setup(makeRepo({'.mesh/public/cluster.yaml': stringify({...CLUSTER, bootstrap: {standard: remote.base}})}), {env: {}})
    expect(await byCluster.area.checkNow()).toMatchObject({state: 'checked', source: 'cluster.yaml', published: 40})
    expect(byCluster.area.warnings?.()).toEqual([GAP])

    const byBootstrap = await setup(makeRepo({'mesh.json': JSON.stringify({mesh_version: 1, hub: {url: remote.base, docs: `${remote.base}/docs`}})}), {env: {}})
    expect(await byBootstrap.area.checkNow()).toMatchObject({state: 'checked', source: 'mesh.json', published: 40})
    expect(byBootstrap.area.warnings?.()).toEqual([GAP])
    expect(remote.requests).toEqual(['/standard/version', '/standard/version'])
  })

  it('says nothing on /health when the versions match', async () => {
    const remote = await site('38')
    const {area} = await setup(makeRepo(), {env: {MESH_STANDARD_URL: `${remote.base}/standard/version`}})
    expect(await area.checkNow()).toMatchObject({state: 'checked', installed: 38, published: 38})
    expect(area.warnings?.()).toEqual([])
  })

  it('offline or a bad answer: one debug line, no warning, no throw', async () => {
    const bad = await site('<html>not a version</html>')
    const garbled = await setup(makeRepo(), {env: {MESH_STANDARD_URL: `${bad.base}/standard/version`}})
    expect(await garbled.area.checkNow()).toMatchObject({state: 'failed'})
    expect(garbled.area.warnings?.()).toEqual([])
    expect(garbled.lines()).toEqual([`no published version: ${bad.base}/standard/version did not answer with one integer`])

    const down = await site('40')
    await down.close()
    const offline = await setup(makeRepo(), {env: {MESH_STANDARD_URL: `${down.base}/standard/version`}})
    expect(await offline.area.checkNow()).toMatchObject({state: 'failed'})
    expect(offline.area.warnings?.()).toEqual([])
    expect(offline.lines()).toHaveLength(1)
    expect(offline.lines()[0]).toMatch(/^no published version: .* did not answer: ECONNREFUSED$/)
  })

  it('keeps a known gap through a later offline look, and never shows a URL password', async () => {
    let answer = '40'
    const remote = await site(() => answer)
    const env: NodeJS.ProcessEnv = {MESH_STANDARD_URL: `${remote.base}/standard/version`}
    const {area, lines} = await setup(makeRepo(), {env})
    await area.checkNow()
    answer = 'garbage'
    await area.checkNow()
    expect(area.warnings?.()).toEqual([GAP])
    env.MESH_STANDARD_URL = `http://reader:s3cret@127.0.0.1:1/standard/version`
    expect(await area.checkNow()).toMatchObject({state: 'failed'})
    expect(lines().join('\n')).not.toContain('s3cret')
  })

  it('does not check at all when MESH_STANDARD_URL is set empty', async () => {
    const remote = await site('40')
    const {area, lines} = await setup(makeRepo({'mesh.json': JSON.stringify({mesh_version: 1, hub: {url: remote.base, docs: `${remote.base}/docs`}})}), {env: {MESH_STANDARD_URL: ''}})
    expect(await area.checkNow()).toMatchObject({state: 'off'})
    expect(remote.requests).toEqual([])
    expect(area.warnings?.()).toEqual([])
    expect(lines()).toEqual(['not checked: $MESH_STANDARD_URL is set empty'])
  })

  it('looks at start and again on its interval, and reports on /health', async () => {
    const remote = await site('40')
    let area: StandardCheckArea | undefined
    const harness = await startHarness({areas: [(context) => (area = standardCheckArea(context, {intervalMs: 20, env: {MESH_STANDARD_URL: `${remote.base}/standard/version`}}))]})
    cleanups.push(() => harness.close())
    await remote.onRequest(2)
    await area!.checkNow()
    const health = await harness.call('GET', '/health')
    expect(health.body.warnings).toContain(GAP)
  })

  it('reads bootstrap.standard as a version URL, a standard folder, or a site', () => {
    expect(versionUrlOf('https://mesh.dev/standard/version')).toBe('https://mesh.dev/standard/version')
    expect(versionUrlOf('https://mesh.dev/standard/')).toBe('https://mesh.dev/standard/version')
    expect(versionUrlOf('https://mesh.dev')).toBe('https://mesh.dev/standard/version')
    expect(versionUrlOf('https://mesh.dev/docs')).toBe('https://mesh.dev/standard/version')
  })

  it("reads the version a real registry publishes (its standard's site, as --site-dir sets it)", async () => {
    const registry = await startSiteServer({site: {...shippedStandardSite('http://127.0.0.1'), version: 40}})
    cleanups.push(() => registry.close())
    const {area} = await setup(makeRepo(), {env: {MESH_STANDARD_URL: `${registry.url}/standard/version`}})
    expect(await area.checkNow()).toMatchObject({state: 'checked', installed: 38, published: 40, source: 'env'})
    expect(area.warnings?.()).toEqual([GAP])
  })
})
