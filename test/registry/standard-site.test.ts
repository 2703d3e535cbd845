import {mkdir, mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {createLocalBus} from '../../src/bus/bus.js'
import {createHostApp} from '../../src/http/host.js'
import {isMeshError} from '../../src/lib/errors.js'
import {silentLogger} from '../../src/lib/log.js'
import {createRegistry} from '../../src/registry/registry.js'
import {createMemoryRegistryStore} from '../../src/registry/store/store.js'
import {CURRENT_STANDARD_VERSION, MARKERS} from '../../src/standard/constants.js'
import {replaceResourcesText} from '../../src/standard/render/resources.js'
import {loadStandardSiteDir, type StandardSite} from '../../src/standard/site.js'
import {BUILTIN_CHANGELOG, BUILTIN_LATEST, parseChangelog} from '../../src/standard/versioning/changelog.js'
import {parseCanonicalVersion} from '../../src/standard/versioning/remote.js'
import {ADMIN_KEY} from './harness.js'

/** An in-process registry like harness.ts, with the standard's site it is given. */
function registryWith(site?: StandardSite) {
  const registry = createRegistry({
    store: createMemoryRegistryStore(),
    bus: createLocalBus(),
    logger: silentLogger,
    publicUrl: 'https://registry.example/',
    jwtSecret: Buffer.alloc(32, 7),
    adminKey: ADMIN_KEY,
    site,
  })
  return request(createHostApp({services: [registry], logger: silentLogger}).callback())
}

async function siteDir(files: {version?: string; changelog?: string; resources?: string}) {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-site-'))
  await mkdir(join(dir, 'standard'))
  if (files.version !== undefined) await writeFile(join(dir, 'standard', 'version'), files.version)
  if (files.changelog !== undefined) await writeFile(join(dir, 'standard', 'CHANGELOG.md'), files.changelog)
  if (files.resources !== undefined) await writeFile(join(dir, 'resources.md'), files.resources)
  return dir
}

const OPERATOR = {version: '41\n', changelog: '# Ours\n\n## v41\nForty-one.\n\n## v40\nForty.\n', resources: '# Our network\n\n- Hub: https://hub.example\n<script>alert(1)</script>\n'}

async function loadError(dir: string) {
  try {
    await loadStandardSiteDir(dir)
  } catch (error) {
    if (isMeshError(error)) return error
    throw error
  }
  throw new Error('loaded')
}

describe('the standard site: shipped defaults', () => {
  it('/standard/version is the shipped integer and a newline, read by parseCanonicalVersion', async () => {
    const res = await registryWith().get('/standard/version')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe(`${CURRENT_STANDARD_VERSION}\n`)
    expect(parseCanonicalVersion(res.text)).toBe(CURRENT_STANDARD_VERSION)
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })

  it('/standard/CHANGELOG.md is the built-in changelog, read back entry for entry by parseChangelog', async () => {
    const res = await registryWith().get('/standard/CHANGELOG.md')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(res.text).toMatch(new RegExp(`^## v${BUILTIN_LATEST}$`, 'm'))
    expect(parseChangelog(res.text)).toEqual(BUILTIN_CHANGELOG)
  })

  it('/resources answers markdown for Accept: text/markdown and ?format=md, usable as the mirrored part', async () => {
    const http = registryWith()
    const byAccept = await http.get('/resources').set('accept', 'text/markdown')
    expect(byAccept.status).toBe(200)
    expect(byAccept.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(byAccept.text).toContain('- Hub: https://registry.example\n')
    expect(byAccept.text).toContain('version at https://registry.example/standard/version')
    expect(byAccept.headers.vary).toMatch(/accept/i)
    const byQuery = await http.get('/resources?format=md')
    expect(byQuery.text).toBe(byAccept.text)
    // What `mesh render --resources` does with it: the operator's part below the marker is kept.
    const mirrored = replaceResourcesText(`old\n${MARKERS.resourcesEnd}\nmine\n`, byQuery.text)
    expect(mirrored).toBe(`${byQuery.text}${MARKERS.resourcesEnd}\nmine\n`)
  })

  it('/resources on the core route is markdown for every Accept: the HTML page is the site part\'s (standard-site-page.test.ts)', async () => {
    const res = await registryWith().get('/resources').set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(res.text).toContain('# Network resources\n')
    expect(res.text).not.toContain('<h1>')
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const http = registryWith()
    const first = await http.get('/standard/version')
    expect(first.headers.etag).toMatch(/^".+"$/)
    expect(first.headers['cache-control']).toContain('max-age=')
    const again = await http.get('/standard/version').set('if-none-match', first.headers.etag)
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    const head = await http.head('/standard/version')
    expect(head.status).toBe(200)
    expect(head.headers.etag).toBe(first.headers.etag)
    const md = await http.get('/resources?format=md')
    expect((await http.get('/resources?format=md').set('if-none-match', md.headers.etag)).status).toBe(304)
  })
})

describe('the standard site: --site-dir', () => {
  it("serves the operator's files; the clients' parsers read them", async () => {
    const site = await loadStandardSiteDir(await siteDir(OPERATOR))
    const http = registryWith(site)
    const version = await http.get('/standard/version')
    expect(version.text).toBe('41\n')
    expect(parseCanonicalVersion(version.text)).toBe(41)
    const changelog = await http.get('/standard/CHANGELOG.md')
    expect(changelog.text).toBe(OPERATOR.changelog)
    expect(parseChangelog(changelog.text).map((entry) => entry.version)).toEqual([40, 41])
    const md = await http.get('/resources').set('accept', 'text/markdown')
    expect(md.text).toBe(OPERATOR.resources)
  })

  it('refuses a missing file, a non-integer version, a changelog without entries, a resources text with the marker', async () => {
    const missing = await loadError(await siteDir({version: '41\n', changelog: OPERATOR.changelog}))
    expect(missing.code).toBe('site_file_unreadable')
    expect(missing.message).toContain('resources.md is missing')
    expect((await loadError(join(tmpdir(), 'mesh-no-such-site-dir'))).code).toBe('site_file_unreadable')
    expect((await loadError(await siteDir({...OPERATOR, version: 'v41\n'}))).code).toBe('site_version_invalid')
    expect((await loadError(await siteDir({...OPERATOR, changelog: '# nothing yet\n'}))).code).toBe('site_changelog_invalid')
    expect((await loadError(await siteDir({...OPERATOR, resources: `# r\n${MARKERS.resourcesEnd}\n`}))).code).toBe('site_resources_invalid')
  })
})
