/**
 * The generated state (issue 20, deliverables 3 and 6): the daemon writes
 * roadmap/state.json and state.js exactly as `mesh roadmap build` would,
 * `.mesh/state.json` by its schema and the cached page, at start and after
 * every change — a hand edit, a route's move, a restore — without snapshots
 * of them and without the watcher echoing them.
 */
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {measureContextTree} from '../../../src/daemon/context-tree.js'
import {getValidator} from '../../../src/lib/schemas.js'
import {buildRoadmap} from '../../../src/standard/roadmap/index.js'
import {frontmatter, INITIATIVE_BODY, makeRepo, taskFile, TODAY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'

let harness: DaemonHarness | undefined
let recorder: EventRecorder | undefined
const temps: string[] = []
afterEach(async () => {
  recorder?.stop()
  recorder = undefined
  await harness?.close()
  harness = undefined
  for (const dir of temps.splice(0)) rmSync(dir, {recursive: true, force: true})
})

const BOARD = {
  '.mesh/modules/api/tasks/API2-login.md': taskFile({id: 'API2', title: 'Login', status: 'next', priority: 'high'}),
  '.mesh/modules/api/tasks/API3-later.md': taskFile({id: 'API3', title: 'Later', status: 'draft', priority: 'critical', initiative: 'launch'}),
  '.mesh/modules/api/tasks/API4-after.md': taskFile({id: 'API4', title: 'After login', status: 'next', priority: 'critical', depends_on: ['API2']}),
  '.mesh/modules/api/tasks/API5-docs.md': taskFile({id: 'API5', title: 'Docs', status: 'active', priority: 'low', depends_on: ['API0']}),
}

async function start(extra: Record<string, string> = {}) {
  harness = await startHarness({repo: makeRepo({...BOARD, ...extra})})
  recorder = recordEvents(harness.running.daemon.context.events, harness.repo.root)
  return {harness, recorder, mesh: (...parts: string[]) => join(harness!.repo.root, '.mesh', ...parts)}
}

/** What `mesh roadmap build` writes for the project as it is now: built on a copy, so the project is untouched. */
async function builtOnACopy(root: string): Promise<{json: string; js: string}> {
  const copy = mkdtempSync(join(tmpdir(), 'mesh-copy-'))
  temps.push(copy)
  cpSync(join(root, '.mesh'), join(copy, '.mesh'), {recursive: true, filter: (source) => !source.includes(`${join('.mesh', 'roadmap', 'state.')}`)})
  await buildRoadmap(copy)
  return {json: readFileSync(join(copy, '.mesh', 'roadmap', 'state.json'), 'utf8'), js: readFileSync(join(copy, '.mesh', 'roadmap', 'state.js'), 'utf8')}
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
/** The first `state.rebuilt` naming `path` among the events from now on (call it before making the change). */
function nextRebuilt(events: EventRecorder, path: string) {
  const seen = new Set(events.of('state.rebuilt'))
  return () => events.waitFor((e) => e.type === 'state.rebuilt' && !seen.has(e) && e.data.causes.includes(path), `state.rebuilt for ${path}`)
}

describe('generated state', () => {
  it('at start: roadmap files as mesh roadmap build writes them, .mesh/state.json by its schema, the page', async () => {
    const {harness, mesh} = await start()
    const built = await builtOnACopy(harness.repo.root)
    expect(readFileSync(mesh('roadmap', 'state.json'), 'utf8')).toBe(built.json)
    expect(readFileSync(mesh('roadmap', 'state.js'), 'utf8')).toBe(built.js)

    const state = readJson(mesh('state.json'))
    const validate = getValidator('daemon-state')
    expect(validate(state), JSON.stringify(validate.errors)).toBe(true)
    const context = harness.running.daemon.context
    expect(state.daemon).toEqual({implementation: 'mesh-ts', version: context.version, pid: process.pid})
    expect(state.context_tree).toEqual(await measureContextTree(context))
    expect(state.context_tree.token_estimate).toBeGreaterThan(0)
    // v15: dispatchable status and dependencies done, priority first; API4 waits on API2, the draft is counted.
    expect(state.tasks.dispatchable.map((task: {id: string}) => task.id)).toEqual(['API2', 'API1', 'API5'])
    expect(state.tasks.waiting).toEqual([{id: 'API4', waiting_on: ['API2']}])
    expect(state.tasks).toMatchObject({total: 5, archived: 1, drafts: 1, by_status: {next: 3, draft: 1, active: 1}})
    expect(state.initiatives).toEqual({total: 1, by_status: {active: 1}, held_active: []})
    expect(readFileSync(mesh('architect', 'roadmap.html'), 'utf8')).toContain('<div class="roadmap">')
  })

  it('rebuilds after a hand edit and a route move, never echoing its own files, never snapshotting them', async () => {
    const {harness, recorder: events, mesh} = await start()
    let rebuilt = nextRebuilt(events, 'modules/api/tasks/API2-login.md')
    writeFileSync(mesh('modules', 'api', 'tasks', 'API2-login.md'), taskFile({id: 'API2', title: 'Login, by hand', status: 'next', priority: 'high'}))
    await rebuilt()
    expect(readFileSync(mesh('roadmap', 'state.json'), 'utf8')).toBe((await builtOnACopy(harness.repo.root)).json)
    expect(readJson(mesh('roadmap', 'state.json')).tasks.find((task: {id: string}) => task.id === 'API2').title).toBe('Login, by hand')

    rebuilt = nextRebuilt(events, 'modules/api/tasks/API2-login.md')
    const moved = await harness.call('POST', '/tasks/API2/transition', {auth: true, body: JSON.stringify({status: 'done'})})
    expect(moved.status).toBe(200)
    expect((await rebuilt()).data.files).toContainEqual({path: '.mesh/state.json', changed: true})
    expect(readFileSync(mesh('roadmap', 'state.json'), 'utf8')).toBe((await builtOnACopy(harness.repo.root)).json)
    // API2 done: API4 is dispatchable now, first (critical).
    expect(readJson(mesh('state.json')).tasks.dispatchable.map((task: {id: string}) => task.id)).toEqual(['API4', 'API1', 'API5'])

    // The watcher has handled every change made so far: none of the daemon's generated files was announced.
    await events.settle()
    const generated = ['.mesh/state.json', '.mesh/roadmap/state.json', '.mesh/roadmap/state.js', '.mesh/architect/roadmap.html']
    expect(events.events.filter((e) => generated.includes(e.data?.path))).toEqual([])
    // The task move left a snapshot; the generated files none.
    const day = readdirSync(mesh('snapshots')).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name))
    const kept = day.flatMap((d) => readFileSync(mesh('snapshots', d, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).path))
    expect(kept).toEqual(['modules/api/tasks/API2-login.md'])
  })

  it('a generated file edited by hand is no cause of a rebuild, and the next rebuild writes it right again', async () => {
    const {harness, recorder: events, mesh} = await start()
    writeFileSync(mesh('roadmap', 'state.json'), '{"edited": "by hand"}\n')
    writeFileSync(mesh('state.json'), '{}\n')
    await events.settle()
    const rebuilt = nextRebuilt(events, 'roadmap/initiatives/beta.md')
    writeFileSync(mesh('roadmap', 'initiatives', 'beta.md'), frontmatter({id: 'beta', title: 'Beta', status: 'active', owner: 'architect', created: TODAY, updated: TODAY}, INITIATIVE_BODY))
    await rebuilt()
    expect(events.of('state.rebuilt').flatMap((e) => e.data.causes)).toEqual(['roadmap/initiatives/beta.md'])
    expect(readFileSync(mesh('roadmap', 'state.json'), 'utf8')).toBe((await builtOnACopy(harness.repo.root)).json)
    expect(readJson(mesh('state.json')).initiatives.total).toBe(2)
  })

  it('an initiative a draft holds is a /health warning and in state.json while it is marked otherwise (spec v15)', async () => {
    const {harness, recorder: events, mesh} = await start()
    const launch = (status: string) => frontmatter({id: 'launch', title: 'Launch', status, owner: 'architect', created: TODAY, updated: TODAY, modules: ['api']}, INITIATIVE_BODY)
    let rebuilt = nextRebuilt(events, 'roadmap/initiatives/launch.md')
    writeFileSync(mesh('roadmap', 'initiatives', 'launch.md'), launch('done'))
    await rebuilt()
    expect(readJson(mesh('state.json')).initiatives.held_active).toEqual([{id: 'launch', status: 'done', drafts: ['API3']}])
    const health = await harness.call('GET', '/health')
    expect(health.body.warnings).toContainEqual(expect.stringMatching(/^initiative launch is marked "done" but has a task in draft \(#API3\)/))

    rebuilt = nextRebuilt(events, 'roadmap/initiatives/launch.md')
    writeFileSync(mesh('roadmap', 'initiatives', 'launch.md'), launch('active'))
    await rebuilt()
    expect((await harness.call('GET', '/health')).body.warnings.filter((w: string) => w.startsWith('initiative '))).toEqual([])
  })

  it('a linked architect/ is never written through: the page is refused and said on /health, the state files are still current', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mesh-outside-'))
    temps.push(outside)
    const repo = makeRepo(BOARD)
    symlinkSync(outside, join(repo.root, '.mesh', 'architect'))
    harness = await startHarness({repo})
    expect(readdirSync(outside)).toEqual([])
    expect(existsSync(join(repo.root, '.mesh', 'state.json'))).toBe(true)
    expect(readFileSync(join(repo.root, '.mesh', 'roadmap', 'state.json'), 'utf8')).toBe((await builtOnACopy(repo.root)).json)
    const health = await harness.call('GET', '/health')
    expect(health.body.warnings).toContainEqual(expect.stringMatching(/^the generated state could not be rebuilt: architect\/roadmap\.html: /))
  })

  it('a linked roadmap/ folder is never written through either', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mesh-outside-'))
    temps.push(outside)
    const repo = makeRepo(BOARD)
    mkdirSync(join(outside, 'initiatives'))
    rmSync(join(repo.root, '.mesh', 'roadmap'), {recursive: true})
    symlinkSync(outside, join(repo.root, '.mesh', 'roadmap'))
    harness = await startHarness({repo})
    expect(readdirSync(outside)).toEqual(['initiatives'])
    expect(readJson(join(repo.root, '.mesh', 'state.json')).tasks.total).toBe(5)
  })
})
