/**
 * `/resources` for a browser: the site part's standard area renders the
 * canonical resources markdown inside the site's frame; markdown readers
 * still get the file from the core route (standard-site.test.ts).
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import request from 'supertest'
import {afterEach, describe, expect, it} from 'vitest'
import {createHostApp} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer} from '../../src/registry/compose.js'
import {SITE_CSP} from '../../src/registry/site/constants.js'
import {renderMarkdown} from '../../src/registry/site/standard/markdown.js'
import {shippedStandardSite, type StandardSite} from '../../src/standard/site.js'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const opened: Array<{server: RegistryServer; dir: string}> = []

afterEach(async () => {
  for (const {server, dir} of opened.splice(0)) {
    await server.close()
    await rm(dir, {recursive: true, force: true})
  }
})

/** The whole `mesh serve registry` stack in-process (no socket), with the standard's site it is given. */
async function siteWith(site?: StandardSite) {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-resources-'))
  const server = await buildRegistryServer({dataDir: dir, publicUrl: 'https://registry.example', logger: silentLogger, site})
  opened.push({server, dir})
  return request(createHostApp({services: server.services, logger: silentLogger}).callback())
}

const HOSTILE = [
  '# Our <script>alert(1)</script> network\u202E',
  '',
  '<script>alert(2)</script>',
  '<img src=x onerror="alert(3)">',
  '- [click](javascript:alert`4`)',
  '- [relative](/standard/version) and [data](data:text/html;base64,PGI+)',
  '- Hub: https://hub.example/x"onmouseover="alert(5)',
  '- <a href="javascript:alert(6)">raw anchor</a>',
  '- \u2066isolated\u2069 text',
  '',
  '```',
  '<script>alert(7)</script>',
  '```',
].join('\n')

describe('/resources in the site frame', () => {
  it('a browser gets the markdown as HTML inside the layout, with the site CSP', async () => {
    const http = await siteWith()
    const res = await http.get('/resources').set('accept', BROWSER)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toBe(SITE_CSP)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers.vary).toMatch(/accept/i)
    expect(res.text).toContain('<title>Network resources · mesh</title>')
    expect(res.text).toContain('<main id="main"')
    expect(res.text).toContain('<a href="/resources" aria-current="page">Resources</a>')
    expect(res.text).toContain('<h1>Network resources</h1>')
    expect(res.text).toContain('<li>Hub: <a href="https://registry.example/" rel="nofollow noopener">https://registry.example</a></li>')
    expect(res.text).toContain('<a href="https://registry.example/standard/version" rel="nofollow noopener">')
    expect(res.text).toContain('<a href="/resources?format=md">markdown</a>')
    expect(res.text).not.toMatch(/<style|style=|<script(?![^>]*src="\/site\/)/)
  })

  it('markdown readers still get the file: ?format=md, Accept: text/markdown, no Accept, curl', async () => {
    const http = await siteWith()
    const markdown = shippedStandardSite('https://registry.example').resources
    for (const res of [
      await http.get('/resources?format=md').set('accept', BROWSER),
      await http.get('/resources').set('accept', 'text/markdown'),
      await http.get('/resources'),
      await http.get('/resources').set('accept', '*/*'),
    ]) {
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
      expect(res.text).toBe(markdown)
    }
    expect((await http.get('/standard/version').set('accept', BROWSER)).headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('answers 304 to a matching If-None-Match and HEAD with the same ETag', async () => {
    const http = await siteWith()
    const first = await http.get('/resources').set('accept', BROWSER)
    expect(first.headers.etag).toMatch(/^".+"$/)
    const again = await http.get('/resources').set('accept', BROWSER).set('if-none-match', first.headers.etag)
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    const head = await http.head('/resources').set('accept', BROWSER)
    expect(head.status).toBe(200)
    expect(head.headers.etag).toBe(first.headers.etag)
    const md = await http.get('/resources?format=md')
    expect(md.headers.etag).not.toBe(first.headers.etag)
  })

  it("an operator's hostile markdown renders inert: no raw HTML, no javascript: or relative link, no bidi control", async () => {
    const site: StandardSite = {...shippedStandardSite('https://registry.example'), resources: HOSTILE, source: {dir: '/tmp/x'}}
    const res = await (await siteWith(site)).get('/resources').set('accept', BROWSER)
    expect(res.status).toBe(200)
    const main = res.text.slice(res.text.indexOf('<main'), res.text.indexOf('</main>'))
    expect(main).not.toMatch(/<script|<img|href="(javascript|data):/i)
    // No tag carries an event handler (the words are shown as escaped text).
    expect(main).not.toMatch(/<[a-z][^>]*\son\w+=/i)
    expect(res.text).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    expect(main).toContain('<h1>Our &lt;script&gt;alert(1)&lt;/script&gt; network</h1>')
    expect(main).toContain('<p>&lt;script&gt;alert(2)&lt;/script&gt; &lt;img src=x onerror=&quot;alert(3)&quot;&gt;</p>')
    expect(main).toContain('<li>click</li>')
    expect(main).toContain('<li>relative and data</li>')
    expect(main).toContain('<a href="https://hub.example/x" rel="nofollow noopener">https://hub.example/x</a>&quot;onmouseover=&quot;alert(5)')
    expect(main).toContain('<pre><code>&lt;script&gt;alert(7)&lt;/script&gt;</code></pre>')
    expect(res.text).toContain('<title>Our &lt;script&gt;alert(1)&lt;/script&gt; network · mesh</title>')
  })
})

describe('renderMarkdown (the resources subset)', () => {
  const render = (markdown: string) => renderMarkdown(markdown).body.value

  it('headings, paragraphs joined across lines, lists, quotes, rules, fenced code', () => {
    expect(render('# One\n\nfirst line\nsecond line\n\n## Two ##\n- a\n- b\n\n1. x\n2) y\n\n> said\n\n---\n\n~~~\ncode  kept\n~~~\n')).toBe(
      [
        '<h1>One</h1>',
        '<p>first line second line</p>',
        '<h2>Two</h2>',
        '<ul><li>a</li><li>b</li></ul>',
        '<ol><li>x</li><li>y</li></ol>',
        '<blockquote><p>said</p></blockquote>',
        '<hr>',
        '<pre><code>code  kept</code></pre>',
      ].join('\n'),
    )
    expect(renderMarkdown('text\n# Title\n').title).toBe('Title')
    expect(renderMarkdown('## only a second level\n').title).toBeUndefined()
  })

  it('inline code, strong, emphasis, links and bare URLs; code keeps its text unlinked', () => {
    expect(render('Run `mesh call https://a.example` with **care** and *speed* at [the hub](https://hub.example/) or <https://b.example/x>.')).toBe(
      '<p>Run <code>mesh call https://a.example</code> with <strong>care</strong> and <em>speed</em> at ' +
        '<a href="https://hub.example/" rel="nofollow noopener">the hub</a> or <a href="https://b.example/x" rel="nofollow noopener">https://b.example/x</a>.</p>',
    )
    expect(render('see https://c.example/docs, then snake_case_name stays')).toBe(
      '<p>see <a href="https://c.example/docs" rel="nofollow noopener">https://c.example/docs</a>, then snake_case_name stays</p>',
    )
    // No anchor inside an anchor: a URL in a link's label is text.
    expect(render('[https://x.example](https://y.example)')).toBe('<p><a href="https://y.example/" rel="nofollow noopener">https://x.example</a></p>')
  })

  it('HTML comments are dropped; unmatched markers stay text', () => {
    expect(render('<!-- note -->\nkeep * this and `that\n')).toBe('<p>keep * this and &#96;that</p>')
  })
})
