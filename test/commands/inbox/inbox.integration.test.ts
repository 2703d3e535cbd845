/**
 * `mesh inbox …` against a real registry (core + messaging part) served in
 * process, with agents registered by the real `mesh register` (file secrets).
 * Needs a fresh dist/ (npm test builds first).
 */
import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {serve, type HostedServer} from '../../../src/http/host.js'
import {freePort} from '../../../src/http/listen.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createRegistryContext} from '../../../src/registry/context.js'
import {createMessagingPart, type MessagingPart} from '../../../src/registry/messaging/index.js'
import {createRegistry} from '../../../src/registry/registry.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {FrameClient} from '../../registry/messaging/harness.js'
import {runCli, spawnCli} from '../../support/cli.js'
import {call} from '../../support/registry-http.js'

describe('mesh inbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-inbox-cli-'))
  const env = {MESH_SECRETS_BACKEND: 'file', MESH_CREDENTIALS_DIR: dir, MESH_REGISTRY: ''}
  let server: HostedServer
  let part: MessagingPart
  let registry: string
  const tokens: Record<string, string> = {}

  const run = (args: string[], input?: string, command = 'inbox') => runCli([command, ...args], {env, input})

  beforeAll(async () => {
    // The public URL is where the CLI reaches it: mesh register's Mesh-Sig v2 names it (issue 18).
    const port = await freePort('127.0.0.1')
    const context = createRegistryContext({store: createMemoryRegistryStore(), bus: createLocalBus(), logger: silentLogger, publicUrl: `http://127.0.0.1:${port}`, jwtSecret: randomBytes(32)})
    part = createMessagingPart(context)
    server = await serve({services: [createRegistry({context, parts: [part]})], logger: silentLogger, port})
    registry = server.url
    for (const agentId of ['ann-cli', 'bob-cli']) {
      const registered = await run([agentId, '--registry', registry, '--show-api-key', '--json'], '', 'register')
      expect(registered.code).toBe(0)
      const {api_key: apiKey} = JSON.parse(registered.stdout)
      tokens[agentId] = (await call(`${registry}/v1/agents/token`, {body: {agent_id: agentId, api_key: apiKey}})).body.token
    }
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dir, {recursive: true, force: true})
  })

  it('sends JSON, text and stdin payloads, then reads them as JSON, consuming them', async () => {
    const sent = await run(['send', '--agent', 'ann-cli', '--to', 'bob-cli', '--payload', '{"ask":"forecast"}', '--json'])
    expect(sent.code).toBe(0)
    const first = JSON.parse(sent.stdout)
    expect(first).toEqual({ok: true, message_id: expect.any(Number)})
    expect((await run(['send', '--agent', 'ann-cli', '--to', 'bob-cli', '--payload', 'plain words'])).stdout).toMatch(/^sent #\d+ to bob-cli\n$/)
    expect((await run(['send', '--agent', 'ann-cli', '--to', 'bob-cli', '--payload', '-'], '[1, 2, 3]\n')).code).toBe(0)
    const read = await run(['read', '--agent', 'bob-cli', '--json'])
    expect(read.code).toBe(0)
    expect(JSON.parse(read.stdout).messages.map((m: {from: string; payload: unknown}) => [m.from, m.payload])).toEqual([
      ['ann-cli', {ask: 'forecast'}],
      ['ann-cli', 'plain words'],
      ['ann-cli', [1, 2, 3]],
    ])
    expect(JSON.parse(read.stdout).messages[0].id).toBe(first.message_id)
    expect(JSON.parse((await run(['read', '--agent', 'bob-cli', '--json'])).stdout)).toEqual({messages: []})
  })

  it('prints NDJSON on a pipe, and the sender sees its receipts', async () => {
    await run(['send', '--agent', 'bob-cli', '--to', 'ann-cli', '--payload', '1'])
    const ann = await run(['read', '--agent', 'ann-cli', '--all'])
    const lines = ann.stdout.trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.map((m) => [m.from, m.payload.type ?? m.payload])).toEqual([
      ['registry', 'receipt'],
      ['bob-cli', 1],
    ])
    const receipts = await run(['read', '--agent', 'bob-cli', '--json'])
    expect(JSON.parse(receipts.stdout).messages[0].payload).toMatchObject({type: 'receipt', read_by: 'ann-cli'})
  })

  it('acks by id and reports how many were removed', async () => {
    const {message_id} = JSON.parse((await run(['send', '--agent', 'ann-cli', '--to', 'bob-cli', '--payload', '"x"', '--json'])).stdout)
    const acked = await run(['ack', String(message_id), '999999', '--agent', 'bob-cli'])
    expect([acked.code, acked.stdout]).toEqual([0, 'acked 1 of 2\n'])
    const bad = await run(['ack', 'abc', '--agent', 'bob-cli'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('is not a message id')
  })

  it('fails with one clear line on refusals', async () => {
    const unknown = await run(['send', '--agent', 'ann-cli', '--to', 'nobody-here', '--payload', '1'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/No agent nobody-here is registered/)
    expect(unknown.stderr).not.toMatch(/\n\s+at /)
    const ambiguous = await run(['read'])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain('pass --agent')
    const json = await run(['send', '--agent', 'ann-cli', '--to', 'nobody-here', '--payload', '1', '--json'])
    expect(JSON.parse(json.stdout)).toEqual({error: {code: 'unknown_recipient', message: expect.any(String), field: 'to'}})
  })

  it('shows the webhook status, and read refuses while a webhook is set', async () => {
    await part.service.setWebhook('bob-cli', 'https://bob.example/hook')
    try {
      const read = await run(['read', '--agent', 'bob-cli'])
      expect(read.code).toBe(1)
      expect(read.stderr).toContain('A webhook is set')
      const status = JSON.parse((await run(['status', '--agent', 'bob-cli', '--json'])).stdout)
      expect(status).toMatchObject({webhook: {url: 'https://bob.example/hook'}, pending: {inbox: 0}, dead_letters: []})
    } finally {
      await part.service.setWebhook('bob-cli', null)
    }
  })

  it('watches live messages as NDJSON until SIGTERM', async () => {
    const watch = spawnCli(['inbox', 'watch', '--agent', 'bob-cli'], {env})
    expect(await watch.nextJson()).toMatchObject({type: 'welcome', agent_id: 'bob-cli'})
    const ann = await FrameClient.connect(`${registry.replace('http', 'ws')}/v1/agents/ws?token=${tokens['ann-cli']}`)
    ann.send({msg_type: 'message', to: 'bob-cli', payload: {live: true}})
    expect(await ann.next()).toMatchObject({type: 'delivered', sockets: 1})
    expect(await watch.nextJson()).toMatchObject({type: 'message', from: 'ann-cli', payload: {live: true}})
    await ann.close()
    expect(await watch.stop('SIGTERM')).toBe(0)
    expect((await call(`${registry}/v1/agents/messages`, {token: tokens['bob-cli']})).body.messages).toEqual([])
  })
})
