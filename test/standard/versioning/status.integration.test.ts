import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {standardStatus} from '../../../src/standard/versioning/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A local standard site on port 0: `routes` maps a path to [status, body]; anything else is 404. */
async function site(routes: Record<string, [number, string]>, delayMs = 0): Promise<string> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? '']
    setTimeout(() => {
      res.writeHead(route?.[0] ?? 404, {'content-type': 'text/plain'})
      res.end(route?.[1] ?? 'not found')
    }, delayMs)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A loopback port nothing listens on: bind, read the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('standardStatus over HTTP', () => {
  it('reads the canonical version and the remote changelog entries in between', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '38\n')
    const base = await site({'/standard/version': [200, '40\n'], '/standard/CHANGELOG.md': [200, '# Changelog\n## v41\nfuture\n## v40\nforty\n## v39\nthirty-nine\n## v38\nold\n']})
    const status = await standardStatus(root, {url: `${base}/standard/version`})
    expect(status).toMatchObject({installed: 38, canonical: 40, state: 'behind', online: true, changelog_source: 'remote', offline_reason: null})
    expect(status.entries).toEqual([{version: 39, text: 'thirty-nine'}, {version: 40, text: 'forty'}])
  })

  it('derives the URL from mesh.json hub.docs', async () => {
    const root = await tempProject()
    const base = await site({'/standard/version': [200, '38']})
    await writeFile(join(root, 'mesh.json'), JSON.stringify({mesh_version: 1, hub: {url: base, docs: `${base}/docs`}}))
    expect(await standardStatus(root, {env: {}})).toMatchObject({installed: 38, canonical: 38, state: 'current', entries: [], version_url: `${base}/standard/version`})
  })

  it('falls back to the built-in changelog when the remote one is missing', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '36\n')
    const base = await site({'/v': [200, '38']})
    const status = await standardStatus(root, {url: `${base}/v`})
    expect(status).toMatchObject({state: 'behind', changelog_source: 'built-in'})
    expect(status.entries.map((entry) => entry.version)).toEqual([37, 38])
  })

  it('is offline, not failing, when the URL is unreachable, and still lists built-in entries', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '35\n')
    const status = await standardStatus(root, {url: `http://127.0.0.1:${await closedPort()}/standard/version`, timeoutMs: 2000})
    expect(status).toMatchObject({installed: 35, canonical: null, state: 'unknown', online: false, changelog_source: 'built-in'})
    expect(status.offline_reason).toMatch(/ECONNREFUSED/)
    expect(status.entries.map((entry) => entry.version)).toEqual([36, 37, 38])
  })

  it('gives up after the timeout, and treats a non-integer answer as offline', async () => {
    const root = await tempProject()
    const slow = await site({'/standard/version': [200, '40']}, 1500)
    expect((await standardStatus(root, {url: `${slow}/standard/version`, timeoutMs: 200})).offline_reason).toMatch(/no answer within 200 ms/)
    const odd = await site({'/standard/version': [200, '<html>v40</html>']})
    expect((await standardStatus(root, {url: `${odd}/standard/version`})).offline_reason).toMatch(/did not answer with one integer/)
    const missing = await site({})
    expect((await standardStatus(root, {url: `${missing}/standard/version`})).offline_reason).toMatch(/HTTP 404/)
  })
})
