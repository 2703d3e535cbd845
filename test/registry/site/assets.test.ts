import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createSiteAssets} from '../../../src/registry/site/assets.js'
import {renderPage} from '../../../src/registry/site/layout.js'
import {html} from '../../../src/registry/site/html.js'

let dir: string | undefined
afterEach(async () => {
  if (dir) await rm(dir, {recursive: true, force: true})
  dir = undefined
})

describe('site assets', () => {
  it('serves each file under a name carrying its content hash', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mesh-assets-'))
    await writeFile(join(dir, 'base.css'), 'body{}')
    await writeFile(join(dir, 'notes.txt'), 'not served')
    const assets = createSiteAssets(dir)
    const path = assets.url('base.css')
    expect(path).toMatch(/^\/site\/base\.[0-9a-f]{12}\.css$/)
    expect(assets.get(path)?.body.toString()).toBe('body{}')
    expect(assets.get(path)?.type).toBe('text/css; charset=utf-8')
    expect(() => assets.url('notes.txt')).toThrow(/No site asset/)
    const changed = assets.add('base.css', 'body{color:red}')
    expect(changed).not.toBe(path)
    expect(assets.get(path)).toBeUndefined()
    expect(() => assets.add('x.exe', 'MZ')).toThrow(TypeError)
  })
  it('the shipped stylesheet has both colour schemes', () => {
    const assets = createSiteAssets()
    const css = assets.get(assets.url('base.css'))!.body.toString()
    expect(css).toContain('prefers-color-scheme: dark')
    expect(css).toContain('prefers-reduced-motion')
  })
})

describe('site layout', () => {
  it('frames a page with landmarks, hashed assets and no inline script or style', () => {
    const assets = createSiteAssets()
    const page = renderPage(assets, {title: '<t>', section: 'network', main: html`<h1>Hi</h1>`, description: 'd"'})
    expect(page).toContain('<title>&lt;t&gt; · mesh</title>')
    expect(page).toMatch(/<header class="site">[\s\S]*<nav aria-label="Site">[\s\S]*<main id="main"[\s\S]*<footer/)
    expect(page).toContain('<a href="/network" aria-current="page">Network</a>')
    expect(page).toContain(`href="${assets.url('base.css')}"`)
    expect(page).toContain('content="d&quot;"')
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/)
    expect(page).not.toMatch(/<style|style="/)
  })
})
