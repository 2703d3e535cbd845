/**
 * The IDE's pages without a daemon (issue 22; docs/ide.md): which requests
 * get a page, the frame (no inline script or style, the CSRF token only for
 * a session, the data block closed to injected markup), and the static
 * files (hashed, small, no eval, nothing from another origin).
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {html, scriptJson} from '../../../src/http/html.js'
import {prefersHtml} from '../../../src/daemon/ide/accept.js'
import {createIdeAssets, IDE_BROWSER_DIR} from '../../../src/daemon/ide/assets.js'
import {renderIdePage} from '../../../src/daemon/ide/frame.js'

describe('which requests get a page', () => {
  it('a browser does; JSON clients, curl and a missing Accept do not', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true)
    expect(prefersHtml('text/html')).toBe(true)
    expect(prefersHtml('application/json')).toBe(false)
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false)
    expect(prefersHtml('text/html;q=0, application/json')).toBe(false)
    expect(prefersHtml('*/*')).toBe(false)
    expect(prefersHtml(undefined)).toBe(false)
  })
})

describe('the frame', () => {
  const assets = createIdeAssets()
  const page = (csrf?: string) =>
    renderIdePage(assets, {title: '<Board>', projectId: '"><script>x()</script>', view: 'board', csrf, main: html`<h1>Board</h1>`, scripts: ['board.js'], data: {title: '</script><script>x()</script>\u2028'}})

  it('has landmarks, hashed files, and nothing inline that runs', () => {
    const text = page('token-1')
    expect(text).toMatch(/<header class="bar">[\s\S]*<nav aria-label="Views">[\s\S]*<main id="main"/)
    expect(text).toContain(`<script defer src="${assets.url('ide.js')}"></script>`)
    expect(text).toContain('<meta name="mesh-csrf" content="token-1">')
    expect(text).not.toMatch(/<style|style="|\son[a-z]+=/)
    // The only script element without a src is the data block, which never runs.
    expect(text.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual(['<script type="application/json" id="ide-data">'])
    expect(text).toContain('&quot;&gt;&lt;script&gt;')
    expect(text).not.toContain('</script><script>x()')
  })

  it('gives no CSRF token and no script to a browser without a session', () => {
    const text = page()
    expect(text).not.toContain('mesh-csrf')
    expect(text).not.toMatch(/<script defer/)
  })

  it('writes the data block so that no text can close it', () => {
    const json = scriptJson({title: '</script><!-- \u2028 & >'}).value
    expect(json).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(json)).toEqual({title: '</script><!-- \u2028 & >'})
  })
})

describe('the static files', () => {
  const files = readdirSync(IDE_BROWSER_DIR)

  it('are served under hashed names', () => {
    const assets = createIdeAssets()
    for (const name of ['ide.css', 'ide.js', 'board.js', 'board-cards.js', 'board-dialogs.js', 'favicon.svg']) {
      expect(assets.url(name)).toMatch(/^\/ide\/assets\/[a-z-]+\.[0-9a-f]{12}\.(css|js|svg)$/)
    }
  })

  it('are small scripts that evaluate no string and load nothing from elsewhere', () => {
    for (const name of files.filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(IDE_BROWSER_DIR, name), 'utf8')
      expect(statSync(join(IDE_BROWSER_DIR, name)).size, name).toBeLessThan(30 * 1024)
      expect(text, name).not.toMatch(/\beval\s*\(|new Function\s*\(|setTimeout\s*\(\s*['"`]|document\.write/)
      expect(text, name).not.toMatch(/https?:\/\//)
    }
  })

  it('have both colour schemes and no remote stylesheet', () => {
    const css = readFileSync(join(IDE_BROWSER_DIR, 'ide.css'), 'utf8')
    expect(css).toContain('prefers-color-scheme: dark')
    expect(css).toContain('prefers-reduced-motion')
    expect(css).not.toMatch(/@import|url\(/)
  })
})
