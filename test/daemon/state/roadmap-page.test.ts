import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {escapeScriptText, renderRoadmapPage} from '../../../src/daemon/state/roadmap-page.js'
import {renderRoadmap, type RoadmapState} from '../../../src/standard/roadmap/index.js'

const HOSTILE = '</script><!-- <script>alert(1)</script> & \u2028\u2029 café 😀 </SCRIPT >'

const state = (title: string): RoadmapState => ({
  format: 1,
  standard_version: 38,
  cluster: {id: 'demo', name: `</title>${title}`, type: 'dev'},
  modules: [],
  initiatives: [],
  tasks: [{id: 'A1', title, status: 'next', priority: 'high', order: null, owner: 'architect', module: 'api', initiative: null, depends_on: [], created: null, updated: null, completed_at: null, dispatchable: true, archived: false, path: '.mesh/modules/api/tasks/A1-x.md', waiting_on: []}],
  totals: {tasks: 1, initiatives: 0, by_status: {next: 1}, unanchored: 1},
  problems: [],
})

const scriptsOf = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1])

describe('the roadmap page', () => {
  it('carries state.js inline with nothing that can close the script, in ASCII, and the same value', () => {
    const html = renderRoadmapPage(state(HOSTILE))
    const [data, app] = scriptsOf(html)
    expect(scriptsOf(html)).toHaveLength(2)
    expect(html.match(/<\/script/gi)).toHaveLength(2)
    expect(html).not.toContain('café')
    // ASCII without control characters: the CSP hashes hold whatever encoding the file is read in.
    for (const script of [data, app]) expect(script).toMatch(/^[\n\x20-\x7e]*$/)
    const json = data.replace(/^window\.MESH_ROADMAP = /, '').replace(/;$/, '')
    expect(JSON.parse(json)).toEqual(JSON.parse(renderRoadmap(state(HOSTILE)).json))
    // No project text outside the data: the shell holds none.
    expect(html.replace(data, '')).not.toContain('alert(1)')
  })

  it('allows exactly its own two scripts and its stylesheet, by hash, and nothing else', () => {
    const html = renderRoadmapPage(state('plain'))
    const policy = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)![1]
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
    const [data, app] = scriptsOf(html)
    const style = html.match(/<style>([\s\S]*?)<\/style>/)![1]
    expect(policy).toBe(`default-src 'none'; style-src ${hash(style)}; script-src ${hash(data)} ${hash(app)}; base-uri 'none'; form-action 'none'`)
  })

  it('escapes as JSON string escapes', () => {
    expect(escapeScriptText('"<a>&\u2028😀"')).toBe('"\\u003ca\\u003e\\u0026\\u2028\\ud83d\\ude00"')
    expect(JSON.parse(escapeScriptText('"<a>&\u2028😀"'))).toBe('<a>&\u2028😀')
  })
})
