/**
 * Issue 12 quality: small dependency-light scripts — every browser script
 * the site ships is under 30 KB (no framework runtime), and every asset is
 * plain: scripts and stylesheets that the CSP lets run (no eval, no inline
 * style injection through `style=` strings, no remote URL).
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BROWSER_DIR} from '../../../src/registry/site/assets.js'

const MAX_SCRIPT_BYTES = 30 * 1024
const files = readdirSync(BROWSER_DIR)

describe('the site\'s browser files', () => {
  it('include base.css', () => {
    expect(files).toContain('base.css')
  })

  it('every script is under 30 KB', () => {
    const sizes = files.filter((name) => name.endsWith('.js')).map((name) => ({name, bytes: statSync(join(BROWSER_DIR, name)).size}))
    expect(sizes.filter((file) => file.bytes >= MAX_SCRIPT_BYTES), JSON.stringify(sizes)).toEqual([])
  })

  it('no script evaluates strings or loads from another origin (the CSP would refuse it at run time)', () => {
    for (const name of files.filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(BROWSER_DIR, name), 'utf8')
      expect(text, name).not.toMatch(/\beval\s*\(|new Function\s*\(|setTimeout\s*\(\s*['"`]/)
      expect(text, name).not.toMatch(/\bimport\s*\(\s*['"`]https?:|src\s*=\s*['"`]https?:/)
    }
  })

  it('no stylesheet loads from another origin', () => {
    for (const name of files.filter((file) => file.endsWith('.css'))) {
      expect(readFileSync(join(BROWSER_DIR, name), 'utf8'), name).not.toMatch(/@import|url\(\s*['"]?(https?:)?\/\//)
    }
  })
})
