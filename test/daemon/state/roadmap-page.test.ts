import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {renderRoadmapPage} from '../../../src/daemon/state/roadmap-page.js'
import {renderRoadmapView} from '../../../src/daemon/state/roadmap-view.js'
import type {RoadmapState} from '../../../src/standard/roadmap/index.js'

const HOSTILE = '</style></script><!-- <script>alert(1)</script> <img src=x onerror=alert(2)> & \u202Egnp.exe'

const task = (id: string, overrides: Partial<RoadmapState['tasks'][number]> = {}): RoadmapState['tasks'][number] => ({
  id,
  title: `Task ${id}`,
  status: 'next',
  priority: 'high',
  order: null,
  owner: 'architect',
  module: 'api',
  initiative: 'launch',
  depends_on: [],
  created: null,
  updated: null,
  completed_at: null,
  dispatchable: true,
  archived: false,
  path: `.mesh/modules/api/tasks/${id}-x.md`,
  waiting_on: [],
  ...overrides,
})

const state = (title: string): RoadmapState => ({
  format: 1,
  standard_version: 38,
  cluster: {id: 'demo', name: `</title>${title}`, type: 'dev'},
  modules: [],
  initiatives: [{id: 'launch', title, status: 'active', owner: 'architect', modules: ['api'], progress: {done: 1, total: 3}, path: '.mesh/roadmap/initiatives/launch.md'}],
  tasks: [
    task('A1', {title, status: 'done'}),
    task('A2', {depends_on: ['A1', 'B9'], waiting_on: ['B9']}),
    task('A3', {status: 'blocked', depends_on: ['A2'], waiting_on: ['A2']}),
    task('A4', {initiative: null, path: '.mesh/modules/api/tasks/A4-sp ace#?.md'}),
    task('A0', {archived: true, status: 'done'}),
  ],
  totals: {tasks: 5, initiatives: 1, by_status: {done: 1, next: 2, blocked: 1}, unanchored: 1},
  problems: [{path: '.mesh/modules/api/tasks/bad.md', problem: `not YAML ${title}`}],
})

describe('the roadmap view', () => {
  it('shows each initiative with its progress, its active tasks in status order and its dependency graph', () => {
    const view = renderRoadmapView(state('Launch'), {links: 'ide'}).value
    expect(view).toContain('<progress id="progress-0" max="3" value="1"')
    expect(view).toContain('1 of 3 done (33%)')
    const rows = [...view.matchAll(/<tr data-task="([^"]+)"/g)].map((match) => match[1])
    // The initiative's open tasks by status (next, blocked), then those without one; done ones on a line, archived ones not at all.
    expect(rows).toEqual(['A2', 'A3', 'A4'])
    expect(view).toContain('<p class="done-line"><span class="status s-done">done</span> 1: <button data-open="A1">A1</button></p>')
    expect(view).toContain('<button data-open="A2">A2</button>')
    // Three nodes of the initiative and the dependency outside it (dashed), three arrows.
    expect(view.match(/<g class="node /g)).toHaveLength(4)
    expect(view).toContain('class="node s-other external"')
    expect(view.match(/marker-end=/g)).toHaveLength(3)
    expect(view).toContain('Dependencies of #launch: 4 tasks, 3 arrows')
  })

  it('escapes every value', () => {
    const view = renderRoadmapView(state(HOSTILE), {links: 'ide'}).value
    expect(view).not.toContain('<script')
    expect(view).not.toContain('<img')
    expect(view).not.toContain('\u202E')
    expect(view).toContain('&lt;img src=x onerror=alert(2)&gt;')
  })
})

describe('the roadmap at 1,000 tasks', () => {
  it('stays well under 500 KB, graphs included', () => {
    const modules = ['api', 'web', 'cli', 'db', 'ops', 'docs']
    const statuses = ['backlog', 'next', 'active', 'blocked', 'done', 'draft']
    const tasks = Array.from({length: 1000}, (_, index) =>
      task(`T${index}`, {
        title: `Task number ${index}: a title of an ordinary length for a card`,
        module: modules[index % 6],
        status: statuses[index % 6],
        initiative: index % 10 === 9 ? null : `init-${index % 9}`,
        depends_on: index >= 9 && index % 3 === 0 ? [`T${index - 9}`] : [],
        waiting_on: [],
      }),
    )
    const big: RoadmapState = {
      ...state('plain'),
      initiatives: Array.from({length: 9}, (_, index) => ({id: `init-${index}`, title: `Initiative ${index}`, status: 'active', owner: 'architect', modules: [], progress: {done: 10, total: 111}})),
      tasks,
    }
    const view = renderRoadmapView(big, {links: 'ide'}).value
    const page = renderRoadmapPage(big)
    expect(view.match(/<tr data-task=/g)).toHaveLength(1000 - 166)
    expect(view.match(/data-open=/g)).toHaveLength(1000)
    expect(view.match(/<g class="node /g)!.length).toBeGreaterThan(300)
    expect(Buffer.byteLength(view)).toBeLessThan(350 * 1024)
    expect(Buffer.byteLength(page)).toBeLessThan(350 * 1024)
    console.log(`roadmap view at 1,000 tasks: ${Math.round(Buffer.byteLength(view) / 1024)} KB, roadmap.html ${Math.round(Buffer.byteLength(page) / 1024)} KB`)
  })
})

describe('the roadmap page', () => {
  it('is the view, with its stylesheet inline, no script, and task ids linking to their files', () => {
    const page = renderRoadmapPage(state(HOSTILE))
    expect(page).not.toMatch(/<script/i)
    expect(page.match(/<\/style/gi)).toHaveLength(1)
    expect(page).toContain('<a class="id" href="../modules/api/tasks/A2-x.md">A2</a>')
    expect(page).toContain('href="../modules/api/tasks/A4-sp%20ace%23%3F.md"')
    expect(page).toContain(renderRoadmapView(state(HOSTILE), {links: 'file'}).value)
  })

  it('allows exactly its own stylesheet, by hash, and nothing else', () => {
    const page = renderRoadmapPage(state('plain'))
    const policy = page.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)![1].replaceAll('&#39;', "'")
    const style = page.match(/<style>([\s\S]*?)<\/style>/)![1]
    const hash = `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`
    expect(policy).toBe(`default-src 'none'; style-src ${hash}; base-uri 'none'; form-action 'none'`)
  })
})
