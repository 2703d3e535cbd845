/**
 * Issue 20 bar: "roadmap/state.json equals what `mesh roadmap build` writes,
 * after every change of a scripted day". A daemon (`mesh serve`, the real
 * binary) is driven through a day: a task created and moved with the CLI, a
 * script-client turn that resolves it, an initiative added, a task edited by
 * hand, and a real `git pull` that changes, adds and deletes task and
 * initiative files. After each change the test waits for the daemon's own
 * `state.rebuilt` naming the changed files (never for elapsed time), then
 * compares its roadmap/state.json and state.js BYTE FOR BYTE with what
 * `mesh roadmap build` writes on a copy of the project taken at that moment.
 */
import {cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {getValidator} from '../../../src/lib/schemas.js'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {frontmatter, INITIATIVE_BODY, taskFile, TODAY} from '../../standard/fixtures.js'
import {git, makeGitProject, type GitProject} from '../git/git-fixture.js'
import {marker, writeScriptTeam} from '../chat/script-team.js'

const WAIT_MS = 30_000
const GENERATED = ['state.json', 'state.js'].map((name) => join('.mesh', 'roadmap', name))

let project: GitProject
let daemon: SpawnedCli
let url: string
let portal: string
let socket: WebSocket
const events: Array<{type: string; data: any}> = []
const waiters = new Set<() => void>()
const temps: string[] = []
const compared: string[] = []

beforeAll(async () => {
  // The daemon does not pull by itself here: the test pulls, as a person would.
  project = makeGitProject({git: {auto_pull: false, auto_commit: false}})
  writeScriptTeam(project.root, [
    {id: 'developer', replies: [{when: 'ship', say: `→ working on #launch · #API2\nShipped the login route.\n${marker('report', {status: 'done', summary: 'login route shipped'})}`}], default: {say: 'ok'}},
  ])
  git(project.root, 'add', '-A')
  git(project.root, 'commit', '-q', '-m', 'chore(team): the developer [GEN1]')
  git(project.root, 'push', '-q')
  daemon = spawnCli(['serve', '--port', '0', '--json'], {cwd: project.root, env: {MESH_LOG_LEVEL: 'warn'}})
  url = JSON.parse(await daemon.waitFor((line) => line.includes('"listening"'))).url
  portal = readFileSync(join(project.root, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  socket = new WebSocket(`${url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${portal}`}})
  socket.on('message', (data) => {
    events.push(JSON.parse(String(data)))
    for (const check of [...waiters]) check()
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
}, 60_000)

afterAll(async () => {
  socket?.close()
  expect(await daemon?.stop()).toBe(0)
  project?.cleanup()
  for (const dir of temps) rmSync(dir, {recursive: true, force: true})
})

function waitFor(match: (event: {type: string; data: any}, index: number) => boolean, what: string, from = 0) {
  return new Promise<{type: string; data: any}>((resolve, reject) => {
    const check = () => {
      const index = events.findIndex((event, i) => i >= from && match(event, i))
      if (index < 0) return false
      waiters.delete(check)
      clearTimeout(timer)
      resolve(events[index])
      return true
    }
    const timer = setTimeout(() => {
      waiters.delete(check)
      reject(new Error(`no ${what} within ${WAIT_MS} ms; saw ${events.slice(from).map((event) => `${event.type} ${JSON.stringify(event.data).slice(0, 160)}`).join('\n')}`))
    }, WAIT_MS)
    if (!check()) waiters.add(check)
  })
}

/** Runs a change, then waits until the daemon's rebuilds since it have named every path (`.mesh/`-relative). */
async function change(paths: string[] | (() => Promise<string[]>), act?: () => Promise<unknown> | unknown): Promise<void> {
  const from = events.length
  const expected = typeof paths === 'function' ? null : paths
  await act?.()
  const wanted = expected ?? (await (paths as () => Promise<string[]>)())
  const named = new Set<string>()
  await waitFor(
    (event) => {
      if (event.type !== 'state.rebuilt') return false
      for (const cause of event.data.causes) named.add(cause)
      return wanted.every((path) => named.has(path))
    },
    `state.rebuilt naming ${wanted.join(', ')}`,
    from,
  )
}

/** `mesh roadmap build` on a copy of the project as it is now (generated files left behind), compared byte for byte. */
async function expectSameAsRoadmapBuild(step: string) {
  const copy = mkdtempSync(join(tmpdir(), 'mesh-day-copy-'))
  temps.push(copy)
  cpSync(join(project.root, '.mesh'), join(copy, '.mesh'), {recursive: true, filter: (source) => !GENERATED.some((path) => source.endsWith(path))})
  const built = await runCli(['roadmap', 'build', '--dir', copy, '--json'])
  expect(built.code, built.stderr).toBe(0)
  for (const path of GENERATED) {
    expect(readFileSync(join(project.root, path), 'utf8'), `${step}: ${path}`).toBe(readFileSync(join(copy, path), 'utf8'))
  }
  compared.push(step)
}

const mesh = async (...args: string[]) => {
  const result = await runCli([...args, '--dir', project.root, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return json(result)
}
const tasksOf = () => JSON.parse(readFileSync(join(project.root, '.mesh', 'roadmap', 'state.json'), 'utf8')).tasks as Array<{id: string; status: string; title: string}>
const API2 = 'modules/api/tasks/API2-login-route.md'

describe('a scripted day: the daemon keeps roadmap/state.json equal to mesh roadmap build', () => {
  it('after the start, every create, move, resolution, initiative, hand edit and git pull', async () => {
    await expectSameAsRoadmapBuild('start')

    await change([API2], () => mesh('task', 'create', '-m', 'api', '-t', 'Login route', '--status', 'next', '--priority', 'high', '--initiative', 'launch'))
    await expectSameAsRoadmapBuild('task created')
    expect(tasksOf().find((task) => task.id === 'API2')).toMatchObject({status: 'next', title: 'Login route'})

    await change([API2], () => mesh('task', 'move', 'API2', 'active'))
    await expectSameAsRoadmapBuild('task moved')

    // A script-client turn on API2 whose report says done: task resolution rewrites the file.
    await change([API2], async () => {
      const response = await fetch(`${url}/chat/send`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${portal}`}, body: JSON.stringify({member: 'developer', text: 'ship it', task: 'API2', initiative: 'launch'})})
      expect(response.status).toBe(202)
    })
    await expectSameAsRoadmapBuild('resolved by a turn')
    expect(tasksOf().find((task) => task.id === 'API2')).toMatchObject({status: 'done'})

    await change(['roadmap/initiatives/billing.md'], () => mesh('initiative', 'create', '--title', 'Billing', '--module', 'api'))
    await expectSameAsRoadmapBuild('initiative added')

    await change([API2], () => writeFileSync(join(project.root, '.mesh', API2), readFileSync(join(project.root, '.mesh', API2), 'utf8').replace('title: Login route', 'title: Login route, renamed by hand')))
    await expectSameAsRoadmapBuild('edited by hand')
    expect(tasksOf().find((task) => task.id === 'API2')).toMatchObject({title: 'Login route, renamed by hand'})

    // Elsewhere: API1 done, a new task, the old archived task deleted, the launch initiative renamed; then a real git pull here.
    const clone = mkdtempSync(join(tmpdir(), 'mesh-day-clone-'))
    temps.push(clone)
    git(clone, 'clone', '-q', project.remote!, 'c')
    const there = join(clone, 'c')
    writeFileSync(join(there, '.mesh/modules/api/tasks/API1-first-task.md'), taskFile({status: 'done'}))
    writeFileSync(join(there, '.mesh/modules/api/tasks/API9-pulled.md'), taskFile({id: 'API9', title: 'Pulled from elsewhere', status: 'next', depends_on: ['API1']}))
    rmSync(join(there, '.mesh/modules/api/log/2025-12/API0-old-task.md'))
    writeFileSync(join(there, '.mesh/roadmap/initiatives/launch.md'), frontmatter({id: 'launch', title: 'Launch, pulled', status: 'active', owner: 'architect', created: TODAY, updated: TODAY, modules: ['api']}, INITIATIVE_BODY))
    git(there, 'add', '-A')
    git(there, 'commit', '-q', '-m', 'chore(api): work from elsewhere [API1]')
    git(there, 'push', '-q', 'origin', 'main')
    await change(['modules/api/tasks/API1-first-task.md', 'modules/api/tasks/API9-pulled.md', 'modules/api/log/2025-12/API0-old-task.md', 'roadmap/initiatives/launch.md'], () => git(project.root, 'pull', '-q', '--ff-only'))
    await expectSameAsRoadmapBuild('git pull')
    expect(tasksOf().map((task) => task.id)).toEqual(['API1', 'API2', 'API9'])

    expect(compared).toEqual(['start', 'task created', 'task moved', 'resolved by a turn', 'initiative added', 'edited by hand', 'git pull'])
    // And the daemon's own state followed: valid, API9 dispatchable now that API1 is done.
    const state = JSON.parse(readFileSync(join(project.root, '.mesh', 'state.json'), 'utf8'))
    expect(getValidator('daemon-state')(state)).toBe(true)
    expect(state.tasks.dispatchable.map((task: {id: string}) => task.id)).toEqual(['API9'])
    // The generated files are ignored by git (the deny-list): nothing for anyone to commit.
    expect(git(project.root, 'status', '--porcelain', '--', '.mesh/state.json', '.mesh/roadmap/state.json', '.mesh/roadmap/state.js', '.mesh/architect')).toBe('')
  })
})
