import {createServer, connect, type Server, type Socket} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {sendAndWait} from '../../../src/client/daemon/send-and-wait.js'
import {startHarness, type DaemonHarness} from '../../daemon/harness.js'
import {marker, writeScriptTeam} from '../../daemon/chat/script-team.js'

let harness: DaemonHarness | undefined
let proxy: Server | undefined
const proxied = new Set<Socket>()
afterEach(async () => {
  proxied.forEach((socket) => socket.destroy())
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)))
  proxy = undefined
  await harness?.close()
  harness = undefined
})

/** A TCP proxy in front of the daemon that can cut the `/events` connections it carries. */
async function eventsCutter(port: number) {
  const eventSockets = new Set<Socket>()
  proxy = createServer((client) => {
    const upstream = connect(port, '127.0.0.1')
    proxied.add(client)
    client.once('data', (first) => {
      if (first.toString('latin1').startsWith('GET /events')) eventSockets.add(client)
    })
    client.pipe(upstream).pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
      proxied.delete(client)
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
  const address = proxy.address() as {port: number}
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => eventSockets.forEach((socket) => socket.destroy()),
  }
}

describe('sendAndWait', () => {
  it('streams the turn line by line from /events and ends with its final', async () => {
    harness = await startHarness()
    writeScriptTeam(harness.repo.root, [{id: 'architect', replies: [{say: `one\ntwo\n${marker('report', {status: 'done'})}`}]}])
    const lines: string[] = []
    const sent: string[] = []
    const outcome = await sendAndWait({url: harness.url, token: harness.token, body: {text: 'hi', member: 'architect'}, onSent: (answer) => sent.push(answer.turn_id), onDelta: (line) => lines.push(line)})
    expect(outcome).toMatchObject({member: 'architect', turn_id: sent[0], status: 'done', text: 'one\ntwo', streamed: true})
    // issue 19: a marker block is never streamed (spec v38: reports are agent-to-agent).
    expect(lines).toEqual(['one', 'two'])
  })

  it('falls back to polling /chat/turns/<id> when the event stream drops mid-turn', async () => {
    harness = await startHarness()
    writeScriptTeam(harness.repo.root, [{id: 'architect', replies: [{say: 'first\nsecond', delay_ms: 300}]}])
    const cutter = await eventsCutter(harness.running.port)
    const fallbacks: string[] = []
    const lines: string[] = []
    const outcome = await sendAndWait({
      url: cutter.url,
      token: harness.token,
      body: {text: 'hi', member: 'architect'},
      pollIntervalMs: 50,
      onDelta(line) {
        lines.push(line)
        cutter.cut()
      },
      onFallback: (reason) => fallbacks.push(reason),
    })
    expect(lines).toEqual(['first'])
    expect(fallbacks).toHaveLength(1)
    expect(outcome).toMatchObject({status: 'done', text: 'first\nsecond', streamed: false})
  })

  it('reports a failed turn found by polling with its reason', async () => {
    harness = await startHarness({chat: {turnTimeoutMs: 1000}})
    writeScriptTeam(harness.repo.root, [{id: 'architect', replies: [{say: 'thinking', hang: true}]}])
    const cutter = await eventsCutter(harness.running.port)
    const outcome = await sendAndWait({url: cutter.url, token: harness.token, body: {text: 'hi', member: 'architect'}, pollIntervalMs: 50, onDelta: () => cutter.cut()})
    expect(outcome).toMatchObject({status: 'failed', reason: 'timeout', text: 'thinking', streamed: false})
  })

  it('refuses a wrong token before sending anything', async () => {
    harness = await startHarness()
    writeScriptTeam(harness.repo.root, [{id: 'architect', replies: [{say: 'never'}]}])
    await expect(sendAndWait({url: harness.url, token: 'wrong', body: {text: 'hi', member: 'architect'}})).rejects.toMatchObject({code: 'invalid_portal_token'})
    const convs = await harness.call('GET', '/chat/convs', {auth: true})
    expect(convs.body.convs).toEqual([])
  })
})
