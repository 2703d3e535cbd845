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
    expect(res.text).toContain('<li>Hub: <a href="https://registry.example" rel="nofollow noopener">https://registry.example</a></li>')
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
    expect(main).toContain('<p>&lt;script&gt;alert(2)&lt;/script&gt;\n&lt;img src=x onerror=&quot;alert(3)&quot;&gt;</p>')
    // A link to anything but an absolute http(s) URL stays its markdown text.
    expect(main).toContain('<li>[click](javascript:alert<code>4</code>)</li>')
    expect(main).toContain('<li>[relative](/standard/version) and [data](data:text/html;base64,PGI+)</li>')
    // The quote cannot leave the attribute: it is percent-encoded in the href and an entity in the text.
    expect(main).toContain('<a href="https://hub.example/x%22onmouseover=%22alert(5)" rel="nofollow noopener">https://hub.example/x&quot;onmouseover=&quot;alert(5)</a>')
    expect(main).toContain('<pre><code>&lt;script&gt;alert(7)&lt;/script&gt;\n</code></pre>')
    expect(res.text).toContain('<title>Our &lt;script&gt;alert(1)&lt;/script&gt; network · mesh</title>')
  })
})

describe('renderMarkdown (markdown-it, safe links)', () => {
  const render = (markdown: string) => renderMarkdown(markdown).body.value

  it('renders CommonMark blocks and takes the first level-1 heading as the title', () => {
    const out = render('# One\n\nfirst line\nsecond line\n\n## Two ##\n- a\n- b\n\n1. x\n2. y\n\n> said\n\n---\n\n~~~\ncode  kept\n~~~\n')
    for (const part of ['<h1>One</h1>', '<p>first line\nsecond line</p>', '<h2>Two</h2>', '<li>a</li>', '<ol>', '<blockquote>', '<hr>', '<pre><code>code  kept\n</code></pre>']) {
      expect(out).toContain(part)
    }
    expect(renderMarkdown('text\n\n# Title\n').title).toBe('Title')
    expect(renderMarkdown('## only a second level\n').title).toBeUndefined()
  })

  it('links http(s) targets and bare URLs with rel="nofollow noopener", never bare domain names or code', () => {
    expect(render('Run `mesh call https://a.example` at [the hub](https://hub.example/) or <https://b.example/x>; see https://c.example/docs or example.com.')).toBe(
      '<p>Run <code>mesh call https://a.example</code> at <a href="https://hub.example/" rel="nofollow noopener">the hub</a> or ' +
        '<a href="https://b.example/x" rel="nofollow noopener">https://b.example/x</a>; see <a href="https://c.example/docs" rel="nofollow noopener">https://c.example/docs</a> or example.com.</p>\n',
    )
    // No anchor inside an anchor: a URL in a link's label is text.
    expect(render('[https://x.example](https://y.example)')).toBe('<p><a href="https://y.example" rel="nofollow noopener">https://x.example</a></p>\n')
  })

  it('drops HTML comments and bidi controls', () => {
    expect(render('<!-- note -->\nkeep \u202Ethis\n')).toBe('<p>keep this</p>\n')
  })
})
