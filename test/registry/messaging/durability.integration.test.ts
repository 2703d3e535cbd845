/**
 * Durability bar, inbox part: a message the registry acknowledged
 * (`{ok: true, message_id}`) survives SIGKILL of the server. Spawns the
 * built binary on a SQLite data dir (dist/ must be fresh).
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {startServer, type RunningServer} from '../../support/cli.js'
import {call, registerAgent} from '../../support/registry-http.js'

describe('inbox durability', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-durable-'))
  const running: RunningServer[] = []
  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()))
    rmSync(dir, {recursive: true, force: true})
  })

  it('keeps posted messages across SIGKILL and restart, and still consumes each once', async () => {
    const first = await startServer('registry', ['--json', '--data', dir])
    running.push(first)
    const ann = await registerAgent(first.url, 'ann-durable')
    const bob = await registerAgent(first.url, 'bob-durable')
    const ids: number[] = []
    for (let i = 0; i < 20; i++) {
      const sent = await call(`${first.url}/agents/messages`, {token: ann.token, body: {to: 'bob-durable', payload: {i}}})
      expect(sent.status).toBe(200)
      ids.push(sent.body.message_id)
    }
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await startServer('registry', ['--json', '--data', dir])
    running.push(second)
    // the JWT secret lives in the data dir too: tokens minted before the crash still work
    const read = await call(`${second.url}/agents/messages`, {token: bob.token})
    expect(read.status).toBe(200)
    expect(read.body.messages.map((m: {id: number; payload: {i: number}}) => [m.id, m.payload.i])).toEqual(ids.map((id, i) => [id, i]))
    expect((await call(`${second.url}/agents/messages`, {token: bob.token})).body.messages).toEqual([])
    // ids keep increasing after the restart
    const after = await call(`${second.url}/agents/messages`, {token: ann.token, body: {to: 'bob-durable', payload: 'after'}})
    expect(after.body.message_id).toBeGreaterThan(Math.max(...ids))
  })
})
