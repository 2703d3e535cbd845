/**
 * Issue 12 bar, fast variant: a hostile card and a hostile public cluster
 * render inert in the served HTML of every page (the whole `mesh serve
 * registry` stack in-process, supertest). The browser variant
 * (hostile-pages.browser.integration.test.ts) checks the live DOM after the
 * pages' scripts ran.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import request from 'supertest'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createHostApp} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer} from '../../../src/registry/compose.js'
import {hostilePages, htmlProblems, LONG, seedHostile, startTags, type SeededHostile} from './hostile-fixture.js'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const MAX_PAGE_BYTES = 200 * 1024

let dir: string
let server: RegistryServer
let http: ReturnType<typeof request>
let seeded: SeededHostile

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mesh-hostile-'))
  server = await buildRegistryServer({dataDir: dir, publicUrl: 'https://registry.example', logger: silentLogger, limits: {perIpPerMinute: 100_000, registrationsPerIpPerHour: 100_000}})
  http = request(createHostApp({services: server.services, logger: silentLogger}).callback())
  seeded = await seedHostile(
    async (method, path, body, headers = {}) => {
      const res = await http[method.toLowerCase() as 'post'](path).set(headers).send(body as object)
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
      return res.body
    },
    server.registry.context.store,
    Date.now(),
  )
})

afterAll(async () => {
  await server?.close()
  if (dir) await rm(dir, {recursive: true, force: true})
})

describe('a hostile card and cluster in the served HTML', () => {
  it('the fixture really is hostile: the JSON views keep the text whole', async () => {
    const record = await http.get(`/v1/agents/${seeded.agentId}`).set('accept', 'application/json')
    expect(JSON.stringify(record.body)).toContain('<script>alert(1)</script>')
    const cluster = await http.get(`/v1/clusters/${seeded.clusterId}/boards/evil/posts`)
    expect(cluster.body.posts[0].body).toContain(LONG.slice(0, 16_000 - 200))
  })

  it.each(['agent', 'network', 'network-search', 'clusters', 'cluster', 'resources'])('%s: inert, under 200 KB', async (name) => {
    const page = hostilePages(seeded).find((p) => p.name === name)!
    const res = await http.get(page.path).set('accept', BROWSER)
    expect(res.status, res.text.slice(0, 300)).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(Buffer.byteLength(res.text)).toBeLessThan(MAX_PAGE_BYTES)
    expect(htmlProblems(res.text)).toEqual([])
    // The hostile text is there, escaped.
    if (page.shows.startsWith('<')) expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('the hostile text is shown escaped where it is shown', async () => {
    const agent = await http.get(`/agent/${seeded.agentId}`).set('accept', BROWSER)
    expect(agent.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    const cluster = await http.get(`/clusters/${seeded.clusterId}`).set('accept', BROWSER)
    expect(cluster.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })
})

describe('htmlProblems (the checker itself)', () => {
  it('flags injected scripts, handlers, script URLs, frames, inline styles and bidi controls', () => {
    expect(htmlProblems('<p>ok</p><script>alert(1)</script>')).toHaveLength(1)
    expect(htmlProblems('<script src="https://evil.example/x.js"></script>')).toHaveLength(1)
    expect(htmlProblems('<div class="x" onclick="alert(1)">')).toEqual(['event handler onclick: <div class="x" onclick="alert(1)">'])
    expect(htmlProblems('<svg onload=alert(1)>')).toHaveLength(1)
    expect(htmlProblems('<a href=" JavaScript:alert(1)">x</a>')).toHaveLength(1)
    expect(htmlProblems('<a href="java&#x0A;script:alert(1)">x</a>')).toHaveLength(1)
    expect(htmlProblems('<iframe src="/x"></iframe><p style="color:red">')).toHaveLength(2)
    expect(htmlProblems('<p>a\u202Eb</p>')).toHaveLength(1)
  })

  it('passes the site\'s own scripts and hostile text shown escaped, inside attribute values too', () => {
    expect(htmlProblems('<script defer src="/site/network.abc.js"></script>')).toEqual([])
    expect(htmlProblems('<meta name="description" content="&lt;img src=x onerror=alert(2)&gt; &quot;&gt;&lt;svg onload=1&gt;">')).toEqual([])
    expect(htmlProblems('<p>&lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(1)</p>')).toEqual([])
    expect(startTags('<a href="/x" title="a b">').map((t) => t.attributes)).toEqual([[{name: 'href', value: '/x'}, {name: 'title', value: 'a b'}]])
  })
})
