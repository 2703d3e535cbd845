/** `mesh serve relay` as a user runs it: the built binary, SQLite in a temp dir. Needs a fresh build. */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {afterAll, expect, it} from 'vitest'
import {api, createCluster, join as joinCluster} from './helpers.js'

const root = new URL('../..', import.meta.url).pathname
const dataDir = mkdtempSync(join(tmpdir(), 'mesh-relay-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(dataDir, {recursive: true, force: true})
})

function start(args: string[]): Promise<{child: ChildProcess; line: string}> {
  const child = spawn(process.execPath, ['bin/run.js', 'serve', 'relay', ...args], {cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, MESH_LOG_LEVEL: 'warn'}})
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`exited ${code}`)))
    createInterface({input: child.stdout!}).once('line', (line) => resolve({child, line}))
  })
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)))

it('prints its URL with the bound port, serves, and stops cleanly on SIGINT with data kept', async () => {
  const first = await start(['--port', '0', '--data', dataDir])
  const url = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(first.line)
  expect(url, first.line).not.toBeNull()
  expect(Number(url![2])).toBeGreaterThan(0)
  // Served alone, the relay answers /health itself: one node, the in-process bus, no peers.
  expect((await api(url![1], 'GET', '/health')).body).toMatchObject({ok: true, service: 'relay', bus: {kind: 'local', connected: true}, peers: []})
  const created = await createCluster(url![1], {name: 'Kept', visibility: 'public'})
  expect(created.ws).toBe(`ws://127.0.0.1:${url![2]}/v1/clusters/${created.cluster_id}/ws`)
  const member = await joinCluster(url![1], created.cluster_id, {agent: 'a'})
  first.child.kill('SIGINT')
  expect(await exited(first.child)).toBe(0)
  await member.closed()
  expect(member.frames.at(-1)).toEqual({type: 'closed', reason: 'server_shutdown'})

  const second = await start(['--port', '0', '--data', dataDir, '--public-url', 'https://relay.example', '--json'])
  const info = JSON.parse(second.line) as {url: string; public_url: string}
  expect(info.public_url).toBe('https://relay.example')
  const detail = await api(info.url, 'GET', '/v1/clusters/kept')
  expect(detail.body.cluster).toMatchObject({cluster_id: created.cluster_id, ws: `wss://relay.example/v1/clusters/${created.cluster_id}/ws`})
  second.child.kill('SIGTERM')
  expect(await exited(second.child)).toBe(0)
})

it('refuses a bad --public-url with a usage error', () => {
  const result = spawnSync(process.execPath, ['bin/run.js', 'serve', 'relay', '--port', '0', '--data', dataDir, '--public-url', 'relay.example'], {cwd: root, encoding: 'utf8'})
  expect(result.status).toBe(2)
  expect(result.stderr).toContain('--public-url')
  expect(result.stderr).not.toMatch(/at .*\.js:\d+/)
})
