/** `mesh serve relay` as a user runs it: the built binary, SQLite in a temp dir. Needs a fresh build. */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, expect, it} from 'vitest'
import {api, createCluster, join as joinCluster} from '../../cluster/helpers.js'
import {startServer, type RunningServer} from '../../support/cli.js'

const dataDir = mkdtempSync(join(tmpdir(), 'mesh-relay-'))
const running: RunningServer[] = []
afterAll(() => {
  for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  rmSync(dataDir, {recursive: true, force: true})
})

async function start(args: string[]) {
  const server = await startServer('relay', args)
  running.push(server)
  return server
}

it('prints its URL with the bound port, serves, and stops cleanly on SIGINT with data kept', async () => {
  const first = await start(['--port', '0', '--data', dataDir])
  const url = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(first.lines[0])
  expect(url, first.lines[0]).not.toBeNull()
  expect(Number(url![2])).toBeGreaterThan(0)
  const created = await createCluster(url![1], {name: 'Kept', visibility: 'public'})
  expect(created.ws).toBe(`ws://127.0.0.1:${url![2]}/v1/clusters/${created.cluster_id}/ws`)
  const member = await joinCluster(url![1], created.cluster_id, {agent: 'a'})
  first.child.kill('SIGINT')
  expect(await first.exited).toBe(0)
  await member.closed()
  expect(member.frames.at(-1)).toEqual({type: 'closed', reason: 'server_shutdown'})

  const second = await start(['--port', '0', '--data', dataDir, '--public-url', 'https://relay.example', '--json'])
  const info = JSON.parse(second.lines[0]) as {url: string; public_url: string}
  expect(info.public_url).toBe('https://relay.example')
  const detail = await api(info.url, 'GET', '/v1/clusters/kept')
  expect(detail.body.cluster).toMatchObject({cluster_id: created.cluster_id, ws: `wss://relay.example/v1/clusters/${created.cluster_id}/ws`})
  second.child.kill('SIGTERM')
  expect(await second.exited).toBe(0)
})
