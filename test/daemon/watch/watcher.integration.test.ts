import {appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {frontmatter, taskFile, TODAY, WORKFLOW_BODY, makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {eventually, recordEvents, type EventRecorder} from './recorder.js'

let harness: DaemonHarness | undefined
let recorder: EventRecorder | undefined
afterEach(async () => {
  recorder?.stop()
  recorder = undefined
  await harness?.close()
  harness = undefined
})

async function start(extra: Record<string, string> = {}) {
  harness = await startHarness({repo: makeRepo(extra)})
  recorder = recordEvents(harness.running.daemon.context.events, harness.repo.root)
  const mesh = (...parts: string[]) => join(harness!.repo.root, '.mesh', ...parts)
  return {harness, recorder, mesh}
}

const workflow = (id: string, title: string) => frontmatter({id, title, scope: 'project', status: 'stable', priority: 'high', owner: 'architect', created: TODAY, updated: TODAY}, WORKFLOW_BODY)
const timelineLine = (text: string) => JSON.stringify({ts: '2026-01-05T10:00:00.000Z', type: 'chat.user', author: 'operator', text}) + '\n'

describe('file watcher: events from files', () => {
  it('publishes workflows.updated for added, changed and removed runbooks, and workflows.run.updated for run logs', async () => {
    const {recorder: events, mesh} = await start()
    writeFileSync(mesh('workflows', 'W2-deploy.md'), workflow('W2', 'Deploy'))
    expect((await events.waitFor((e) => e.type === 'workflows.updated' && e.data.id === 'W2')).data).toEqual({id: 'W2', path: '.mesh/workflows/W2-deploy.md', change: 'added'})

    writeFileSync(mesh('workflows', 'W1-release.md'), workflow('W1', 'Release, again'))
    expect((await events.waitFor((e) => e.type === 'workflows.updated' && e.data.id === 'W1')).data).toEqual({id: 'W1', path: '.mesh/workflows/W1-release.md', change: 'changed'})

    unlinkSync(mesh('workflows', 'W2-deploy.md'))
    await events.waitFor((e) => e.type === 'workflows.updated' && e.data.id === 'W2' && e.data.change === 'removed', 'W2 removed')

    mkdirSync(mesh('workflows', 'log', '2026-01'), {recursive: true})
    writeFileSync(mesh('workflows', 'log', '2026-01', 'W1-2026-01-05-prod.md'), frontmatter({workflow: 'W1', date: TODAY, operator: 'me', agent: 'architect', outcome: 'success'}))
    expect((await events.waitFor((e) => e.type === 'workflows.run.updated')).data).toEqual({id: 'W1', path: '.mesh/workflows/log/2026-01/W1-2026-01-05-prod.md', change: 'added'})

    mkdirSync(mesh('protocols'), {recursive: true})
    writeFileSync(mesh('protocols', 'P1-incident.md'), workflow('P1', 'Incident'))
    expect((await events.waitFor((e) => e.type === 'protocols.updated')).data).toEqual({id: 'P1', path: '.mesh/protocols/P1-incident.md', change: 'added'})
  })

  it('publishes task.created, task.updated and task.deleted with the id and status of the frontmatter, tolerating a broken file', async () => {
    const {recorder: events, mesh} = await start()
    const path = mesh('modules', 'api', 'tasks', 'API2-login.md')
    writeFileSync(path, taskFile({id: 'API2', title: 'Login', status: 'backlog'}))
    expect((await events.waitFor((e) => e.type === 'task.created')).data).toEqual({id: 'API2', path: '.mesh/modules/api/tasks/API2-login.md', module: 'api', status: 'backlog', by: 'file'})

    writeFileSync(path, taskFile({id: 'API2', title: 'Login', status: 'active'}))
    // The one task.updated shape (issue 20): from the status last read, to the status now, by "file".
    expect((await events.waitFor((e) => e.type === 'task.updated' && e.data.to === 'active')).data).toEqual({
      id: 'API2', path: '.mesh/modules/api/tasks/API2-login.md', module: 'api', from: 'backlog', to: 'active', dispatchable: true, completed_at: null, by: 'file',
    })

    // Half-typed YAML: still an event, by the id in the file name, without a status.
    writeFileSync(path, '---\nid: [API2\nstatus: active\n---\nbody\n')
    expect((await events.waitFor((e) => e.type === 'task.updated' && e.data.to === null)).data).toEqual({
      id: 'API2', path: '.mesh/modules/api/tasks/API2-login.md', module: 'api', from: 'active', to: null, dispatchable: false, completed_at: null, by: 'file',
    })
    // Fixed again: its `from` is the last status read (a file caught mid-write does not forget it).
    writeFileSync(path, taskFile({id: 'API2', title: 'Login', status: 'blocked'}))
    expect((await events.waitFor((e) => e.type === 'task.updated' && e.data.to === 'blocked')).data).toMatchObject({from: 'active', to: 'blocked', by: 'file'})

    unlinkSync(path)
    expect((await events.waitFor((e) => e.type === 'task.deleted')).data).toEqual({id: 'API2', path: '.mesh/modules/api/tasks/API2-login.md', module: 'api'})
  })

  it('publishes cluster.updated for cluster.yaml and file.changed for other files', async () => {
    const {recorder: events, harness: daemon, mesh} = await start()
    const cluster = daemon.repo.read('.mesh/public/cluster.yaml')
    writeFileSync(mesh('public', 'cluster.yaml'), cluster.replace('name: Demo', 'name: Demo renamed'))
    expect((await events.waitFor((e) => e.type === 'cluster.updated')).data).toEqual({})

    writeFileSync(mesh('team', 'developer.md'), frontmatter({id: 'developer', title: 'Developer', client: 'claude', model: 'opus', context: [], exposure: 'internal'}, '\nYou build.\n'))
    expect((await events.waitFor((e) => e.type === 'file.changed' && e.data.path === '.mesh/team/developer.md')).data).toEqual({path: '.mesh/team/developer.md', change: 'added'})
  })

  it('delivers only the lines appended to a timeline file, each line once', async () => {
    const {recorder: events, mesh} = await start({'.mesh/timeline/2026-01-05.jsonl': timelineLine('before the daemon')})
    appendFileSync(mesh('timeline', '2026-01-05.jsonl'), timelineLine('one') + timelineLine('two'))
    const first = await events.waitFor((e) => e.type === 'timeline.appended')
    expect(first.data.file).toBe('.mesh/timeline/2026-01-05.jsonl')
    expect(first.data.events.map((line: {text: string}) => line.text)).toEqual(['one', 'two'])

    // A line written in two steps is delivered once it is whole.
    appendFileSync(mesh('timeline', '2026-01-05.jsonl'), timelineLine('three').slice(0, 20))
    await events.settle()
    appendFileSync(mesh('timeline', '2026-01-05.jsonl'), timelineLine('three').slice(20))
    await events.waitFor((e) => e.type === 'timeline.appended' && e.data.events.some((line: {text: string}) => line.text === 'three'), 'line three')

    writeFileSync(mesh('timeline', '2026-01-06.jsonl'), timelineLine('new day'))
    await events.waitFor((e) => e.type === 'timeline.appended' && e.data.file === '.mesh/timeline/2026-01-06.jsonl', 'the new day file')
    await events.settle()
    const texts = events.of('timeline.appended').flatMap((e) => e.data.events.map((line: {text: string}) => line.text))
    expect(texts).toEqual(['one', 'two', 'three', 'new day'])
  })

  it("reports an editor's save through a temp file and a rename as one change", async () => {
    const {recorder: events, mesh} = await start()
    const target = mesh('workflows', 'W1-release.md')
    // Write-temp-then-rename (VS Code, atomic-write libraries).
    writeFileSync(mesh('workflows', '.W1-release.md.4242.tmp'), workflow('W1', 'Renamed into place'))
    renameSync(mesh('workflows', '.W1-release.md.4242.tmp'), target)
    await events.waitFor((e) => e.type === 'workflows.updated', 'the first save')
    // Vim: move the file to a backup, write it anew, delete the backup.
    renameSync(target, `${target}~`)
    writeFileSync(target, workflow('W1', 'Written by vim'))
    unlinkSync(`${target}~`)
    await events.settle()
    expect(events.of('workflows.updated').map((e) => e.data)).toEqual([
      {id: 'W1', path: '.mesh/workflows/W1-release.md', change: 'changed'},
      {id: 'W1', path: '.mesh/workflows/W1-release.md', change: 'changed'},
    ])
    expect(events.events.filter((e) => JSON.stringify(e.data).includes('.tmp') || JSON.stringify(e.data).includes('~'))).toEqual([])
  })

  it('says nothing of ignored folders and scratch files', async () => {
    const {recorder: events, mesh} = await start()
    mkdirSync(mesh('snapshots', '2026-01-05'), {recursive: true})
    writeFileSync(mesh('snapshots', '2026-01-05', 'index.jsonl'), '{}\n')
    writeFileSync(mesh('.runtime', 'scratch.json'), '{}')
    writeFileSync(mesh('credentials', 'invite.url'), 'https://example.com/i/secret')
    mkdirSync(mesh('uploads'), {recursive: true})
    writeFileSync(mesh('uploads', 'a.png'), 'png')
    writeFileSync(mesh('docs', '.notes.md.swp'), 'swap')
    writeFileSync(mesh('docs', 'notes.md~'), 'backup')
    writeFileSync(mesh('docs', '.#notes.md'), 'lock')
    writeFileSync(mesh('docs', '.notes.md.77.abcdef012345.tmp'), 'temp')
    writeFileSync(mesh('docs', '.notes.md.77.abcdef012345.new'), 'temp')
    await events.settle()
    expect(events.events.filter((e) => !(e.type === 'file.changed' && /sentinel/.test(e.data.path)))).toEqual([])
  })

  it("publishes one links.updated for a hand edit of links.yaml and none of its own for the daemon's write", async () => {
    const {recorder: events, harness: daemon, mesh} = await start()
    writeFileSync(mesh('public', 'links.yaml'), 'version: 1\nmodules:\n  - id: api\n    notes: by hand\n')
    expect((await events.waitFor((e) => e.type === 'links.updated')).data).toEqual({module: null, by: 'file'})
    await events.settle()
    expect(events.of('links.updated')).toHaveLength(1)

    const patched = await daemon.call('POST', '/links/api', {auth: true, body: JSON.stringify({local: {url: 'http://localhost:3000'}})})
    expect(patched.status).toBe(200)
    // The watcher saw the write and skipped it as the daemon's own (the links area announced it).
    const {debug} = daemon.running.daemon.context
    await eventually(() => debug.tail({lastSecs: 600, tags: ['watch.own-write']}).events.some((e) => e.msg.startsWith('public/links.yaml')), 'the own-write skip')
    await events.settle()
    expect(events.of('links.updated').map((e) => e.data)).toEqual([
      {module: null, by: 'file'},
      {module: 'api', by: 'daemon'},
    ])
  })

  it('reads a task file after its last write, though chokidar throttles its change events, and the board says so', async () => {
    const {harness: daemon, recorder: events, mesh} = await start()
    const path = mesh('modules', 'api', 'tasks', 'API1-first-task.md')
    // Within chokidar's 50 ms throttle of a file's change events: the second write gets no event of its own, and the
    // watcher's settle (longer than the throttle) reads the file after it.
    writeFileSync(path, taskFile({status: 'active'}))
    await new Promise((resolve) => setTimeout(resolve, 25))
    writeFileSync(path, taskFile({status: 'done'}))
    await events.waitFor((e) => e.type === 'task.updated' && e.data.id === 'API1' && e.data.to === 'done', 'API1 done')
    expect((await daemon.call('GET', '/tasks?ids=API1')).body.tasks).toMatchObject([{id: 'API1', status: 'done'}])
  })

  it("publishes no task event of its own for the daemon's task transition", async () => {
    const {recorder: events, harness: daemon} = await start()
    const moved = await daemon.call('POST', '/tasks/API1/transition', {auth: true, body: JSON.stringify({status: 'active'})})
    expect(moved.status).toBe(200)
    const {debug} = daemon.running.daemon.context
    await eventually(() => debug.tail({lastSecs: 600, tags: ['watch.own-write']}).events.some((e) => e.msg.startsWith('modules/api/tasks/')), 'the own-write skip')
    await events.settle()
    expect(events.of('task.updated').map((e) => e.data)).toEqual([expect.objectContaining({id: 'API1', from: 'next', to: 'active', by: 'operator'})])
  })

  it('reaches /events subscribers over the WebSocket and stops cleanly with the daemon', async () => {
    const {harness: daemon, mesh} = await start()
    const ws = new WebSocket(daemon.url.replace('http', 'ws') + '/events', {headers: {authorization: `Bearer ${daemon.token}`}})
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))
    const received = new Promise<any>((resolve) => ws.on('message', (data) => {
      const event = JSON.parse(String(data))
      if (event.type === 'task.created') resolve(event)
    }))
    writeFileSync(mesh('modules', 'api', 'tasks', 'API3-ws.md'), taskFile({id: 'API3', title: 'Over the socket'}))
    const event = await received
    expect(event.data).toEqual({id: 'API3', path: '.mesh/modules/api/tasks/API3-ws.md', module: 'api', status: 'next', by: 'file'})
    const closed = new Promise((resolve) => ws.on('close', resolve))
    await daemon.running.stop()
    await closed
    // A change after the stop reaches nobody and breaks nothing.
    rmSync(mesh('modules', 'api', 'tasks', 'API3-ws.md'))
  })
})

describe('file watcher: only files it announced are removed', () => {
  const notAbout = (events: EventRecorder, path: string) => events.events.filter((e) => JSON.stringify(e.data).includes(path))

  it('says nothing of a file created and deleted before its creation was reported, though the deletion settles apart', async () => {
    const {recorder: events, mesh} = await start()
    // chokidar holds an unlink for its `atomic` window (100 ms), longer than the debounce (60 ms): a file
    // deleted after chokidar saw it appear has its add settle alone (finding it gone) and its unlink later,
    // as a burst of its own. Several pauses, since when chokidar reads the folder is its own affair.
    for (const pauseMs of [0, 10, 20, 30, 40]) {
      writeFileSync(mesh('docs', `scratch-${pauseMs}.md`), 'draft\n')
      writeFileSync(mesh('modules', 'api', 'tasks', `API9${pauseMs}-gone.md`), taskFile({id: `API9${pauseMs}`, title: 'Gone at once'}))
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
      unlinkSync(mesh('docs', `scratch-${pauseMs}.md`))
      unlinkSync(mesh('modules', 'api', 'tasks', `API9${pauseMs}-gone.md`))
    }
    // Past the atomic window, so the held unlinks have been handed on and handled before the sentinel.
    await new Promise((resolve) => setTimeout(resolve, 300))
    await events.settle()
    expect(notAbout(events, 'scratch-')).toEqual([])
    expect(notAbout(events, '-gone.md')).toEqual([])
  })

  it('reports the removal of a file that was there at start, and never of a link', async () => {
    const repo = makeRepo()
    const outside = join(repo.root, 'outside.md')
    writeFileSync(outside, 'not in .mesh\n')
    symlinkSync(outside, join(repo.root, '.mesh', 'docs', 'linked-at-start.md'))
    harness = await startHarness({repo})
    const events = (recorder = recordEvents(harness.running.daemon.context.events, repo.root))
    const mesh = (...parts: string[]) => join(repo.root, '.mesh', ...parts)

    unlinkSync(mesh('workflows', 'W1-release.md'))
    expect((await events.waitFor((e) => e.type === 'workflows.updated')).data).toEqual({id: 'W1', path: '.mesh/workflows/W1-release.md', change: 'removed'})
    unlinkSync(mesh('modules', 'api', 'tasks', 'API1-first-task.md'))
    expect((await events.waitFor((e) => e.type === 'task.deleted')).data).toEqual({id: 'API1', path: '.mesh/modules/api/tasks/API1-first-task.md', module: 'api'})

    unlinkSync(mesh('docs', 'linked-at-start.md'))
    symlinkSync(outside, mesh('docs', 'linked-later.md'))
    await events.settle()
    unlinkSync(mesh('docs', 'linked-later.md'))
    await new Promise((resolve) => setTimeout(resolve, 300))
    await events.settle()
    expect(notAbout(events, 'linked-')).toEqual([])
  })

  it('reports the removal of a file the daemon wrote and announced itself', async () => {
    const {recorder: events, harness: daemon} = await start()
    const created = await daemon.call('POST', '/tasks', {auth: true, body: JSON.stringify({module: 'api', title: 'Made by the daemon'})})
    expect(created.status).toBe(201)
    const path: string = created.body.path
    // Its creation was the route's to announce: the watcher skipped the echo, and knows the file from it.
    const {debug} = daemon.running.daemon.context
    await eventually(() => debug.tail({lastSecs: 600, tags: ['watch.own-write']}).events.some((e) => e.msg.startsWith(`${path.slice('.mesh/'.length)}:`)), 'the own-write skip')
    unlinkSync(join(daemon.repo.root, path))
    expect((await events.waitFor((e) => e.type === 'task.deleted')).data).toEqual({id: created.body.id, path, module: 'api'})
  })
})
