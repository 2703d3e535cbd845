/**
 * The real binary in a project made by `mesh init`, every daemon route driven
 * over HTTP, the files on disk checked after each write; bad input on every
 * route; a daemon killed with SIGKILL in the middle of writes.
 */
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {parse} from 'yaml'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'

let root: string
let server: SpawnedCli
let url: string
let token: string
let taskId: string

const call = async (method: string, path: string, body?: unknown, auth = true) => {
  const response = await fetch(url + path, {
    method,
    headers: {...(auth ? {authorization: `Bearer ${token}`} : {}), ...(body !== undefined ? {'content-type': 'application/json'} : {})},
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return {status: response.status, body: text ? JSON.parse(text) : null}
}
const read = (path: string) => readFileSync(join(root, '.mesh', path), 'utf8')

beforeAll(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'mesh-e2e-'))
  expect((await runCli(['init', 'demo', '--yes'], {cwd: parent})).code).toBe(0)
  root = join(parent, 'demo')
  const created = json(await runCli(['task', 'create', '--module', 'general', '--title', 'Write the guide', '--json'], {cwd: root}))
  taskId = created.id
  server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root})
  url = (await server.nextJson()).url
  token = (await runCli(['daemon', 'token'], {cwd: root})).stdout.trim().split(/\s+/).pop()!
})

afterAll(async () => {
  await server?.stop()
  rmSync(join(root, '..'), {recursive: true, force: true})
})

describe('every daemon route on a scaffolded project', () => {
  it('reads: health, info, workflows, protocols, links, storage, debug tail', async () => {
    const health = await call('GET', '/health', undefined, false)
    expect(health.body).toMatchObject({ok: true, cluster_id: 'demo', endpoint: url})
    // `mesh init` made no git repository, and git.auto_pull is on by default: reported, not fatal.
    expect(health.body.warnings).toEqual([expect.stringMatching(/not a git repository/)])
    expect((await call('GET', '/info', undefined, false)).body.paths.root).toBe(root)
    expect((await call('GET', '/workflows', undefined, false)).body.workflows).toEqual([])
    expect((await call('GET', '/protocols', undefined, false)).body.protocols).toEqual([])
    expect((await call('GET', '/links', undefined, false)).status).toBe(200)
    const storage = await call('GET', '/storage/usage', undefined, false)
    expect(storage.body.buckets.map((b: {name: string}) => b.name)).toEqual(expect.arrayContaining(['timeline', 'log', 'queues', 'uploads', 'snapshots']))
    expect((await call('GET', '/debug/tail?tag=boot')).body.events.length).toBeGreaterThan(0)
  })

  it('writes, each checked on disk and announced on /events', async () => {
    const ws = new WebSocket(url.replace('http', 'ws') + '/events', {headers: {authorization: `Bearer ${token}`}})
    const events: Array<{type: string; data: any}> = []
    ws.on('message', (data) => events.push(JSON.parse(String(data))))
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))

    const patched = await call('POST', '/links/general', {local: {url: 'http://127.0.0.1:3000'}})
    expect(patched.status).toBe(200)
    expect(parse(read('public/links.yaml')).modules.find((m: {id: string}) => m.id === 'general').local.url).toBe('http://127.0.0.1:3000')

    const moved = await call('POST', `/tasks/${taskId}/transition`, {status: 'active'})
    expect(moved.body).toMatchObject({id: taskId, to: 'active', changed: true})
    const taskFile = readdirSync(join(root, '.mesh/modules/general/tasks')).find((f) => f.startsWith(taskId))!
    expect(read(`modules/general/tasks/${taskFile}`)).toMatch(/status: active/)

    const version = await call('POST', '/version/next', {bump: 'minor', task_id: taskId})
    expect(version.body).toEqual({version: '0.1.0', task_id: taskId})
    expect(parse(read('public/links.yaml')).modules.find((m: {id: string}) => m.id === 'general').repo.version).toBe('0.1.0')

    expect((await call('POST', '/debug/log', {lvl: 'info', tag: 'ux.run-all', msg: 'e2e'})).body).toEqual({accepted: 1})

    const snapshots = await call('GET', `/snapshots?path=${encodeURIComponent('public/links.yaml')}`)
    expect(snapshots.status).toBe(200)
    const restored = await call('POST', '/snapshots/restore', {path: 'public/links.yaml'})
    expect(restored.status).toBe(200)
    expect(parse(read('public/links.yaml')).modules.find((m: {id: string}) => m.id === 'general').repo?.version).not.toBe('0.1.0')

    await expect.poll(() => events.map((e) => e.type), {timeout: 10_000}).toEqual(expect.arrayContaining(['links.updated', 'task.updated', 'version.issued']))
    ws.close()
  })

  it('answers bad input on every route with a stable code, never a 500, never a file outside .mesh/', async () => {
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', '/links/general', '{', 400],
      ['POST', '/links/general', {local: 'not an object'}, 400],
      ['POST', '/links/general', {other: {}}, 400],
      ['POST', '/links/nope', {local: {url: 'http://x'}}, 404],
      ['POST', '/links/..%2f..%2fetc', {local: {url: 'http://x'}}, 400],
      ['GET', '/links/..%2fsecret', undefined, 400],
      ['GET', '/workflows/..%2f..%2fmesh.json', undefined, 400],
      ['GET', '/workflows/W99', undefined, 404],
      ['GET', '/protocols/P1/runs', undefined, 404],
      ['POST', `/tasks/${taskId}/transition`, {status: 42}, 400],
      ['POST', '/tasks/..%2f..%2fx/transition', {status: 'done'}, 400],
      ['POST', '/tasks/NOPE999/transition', {status: 'done'}, 404],
      ['POST', '/version/next', {bump: 'huge', task_id: taskId}, 400],
      ['POST', '/version/next', {bump: 'patch', task_id: 'NOPE999'}, 404],
      ['POST', '/version/next', [], 400],
      ['POST', '/debug/log', {lvl: 'info'}, 400],
      ['GET', '/debug/tail?last=abc', undefined, 400],
      ['POST', '/snapshots/restore', {path: '../mesh.json'}, 400],
      ['POST', '/snapshots/restore', {path: 'public/never.yaml'}, 404],
      ['POST', '/links/general', JSON.stringify({local: {url: 'x'.repeat(2 * 1024 * 1024)}}), 413],
    ]
    for (const [method, path, body, status] of cases) {
      const answer = await call(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(status)
      expect(typeof answer.body?.error?.code, `${method} ${path}`).toBe('string')
    }
    expect(existsSync(join(root, 'secret'))).toBe(false)
    expect((await call('GET', '/health', undefined, false)).status).toBe(200)
  })
})

describe('a daemon killed in the middle of writes', () => {
  it('leaves every file whole, and the next daemon cleans up', async () => {
    const writes = Array.from({length: 40}, (_, i) => call('POST', '/links/general', {notes: undefined, prod: {deployed_version: `9.9.${i}`, url: `https://example.com/${'p'.repeat(2000)}${i}`}}).catch(() => null))
    await new Promise((resolve) => setTimeout(resolve, 30))
    await server.stop('SIGKILL')
    await Promise.all(writes)
    const links = parse(read('public/links.yaml'))
    expect(Array.isArray(links.modules)).toBe(true)
    // Whether or not the kill caught a write between its temp file and the rename, such a file is what it would leave.
    writeFileSync(join(root, '.mesh/public/.links.yaml.999999.abcdefabcdef.tmp'), 'half')
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root})
    url = (await server.nextJson()).url
    const leftover = (dir: string): string[] =>
      readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? leftover(join(dir, e.name)) : /\.tmp$|\.new$/.test(e.name) ? [join(dir, e.name)] : []))
    expect(leftover(join(root, '.mesh'))).toEqual([])
    expect((await call('GET', '/links/general', undefined, false)).status).toBe(200)
  })
})
