import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import type {ClusterConnection} from '../../../src/client/cluster/connection.js'
import type {MessageFrame} from '../../../src/client/cluster/frames.js'
import type {HostedServer} from '../../../src/http/index.js'
import {runCli, spawnCli} from '../../support/cli.js'
import {startRelay} from './harness.js'

let relay: HostedServer
let env: Record<string, string>
let client: ClusterClient

beforeAll(async () => {
  relay = await startRelay()
  env = {MESH_RELAY: relay.url}
  client = new ClusterClient({relay: relay.url})
})
afterAll(async () => {
  await relay.stop()
})

/** oclif wraps long error lines with ` › ` margins; compare the words. */
const oneLine = (text: string) => text.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ')
const nextMessage = (connection: ClusterConnection) => new Promise<MessageFrame>((resolve) => connection.once('message', resolve))

describe('mesh cluster create | list | show | delete', () => {
  it('creates a private cluster, prints the tokens once with a warning, and keeps it out of the catalog', async () => {
    const human = await runCli(['cluster', 'create', '--name', 'Backroom'], {env})
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/^cluster\s+c_\S+$/m)
    expect(human.stdout).toMatch(/admin token {2}ak_\S+ {3}\(delete\/administer: keep it secret\)/)
    expect(human.stderr).toContain('the admin token is shown only once')

    const json = await runCli(['cluster', 'create', '--name', 'Backroom 2', '--json'], {env})
    const created = JSON.parse(json.stdout)
    expect(created).toMatchObject({cluster_id: expect.stringMatching(/^c_/), token: expect.stringMatching(/^ck_/), admin_token: expect.stringMatching(/^ak_/), visibility: 'private'})

    const list = JSON.parse((await runCli(['cluster', 'list', '--json'], {env})).stdout)
    expect(list.clusters.map((item: {id: string}) => item.id)).not.toContain(created.cluster_id)
    const show = await runCli(['cluster', 'show', created.cluster_id], {env})
    expect(show.code).toBe(1)
    expect(show.stderr).toMatch(/Error: .*/)
  })

  it('lists and shows a public cluster by slug, then deletes it with the admin token only', async () => {
    const created = JSON.parse(
      (await runCli(['cluster', 'create', '--name', 'Town Square', '--visibility', 'public', '--topic', '#town', '--description', 'Everyone', '--props-json', '{"lang":"en"}', '--json'], {env})).stdout,
    )
    const listed = await runCli(['cluster', 'list'], {env})
    expect(listed.stdout).toMatch(new RegExp(`${created.cluster_id}\\s+town-square\\s+0\\s+#town\\s+Everyone`))
    const shown = JSON.parse((await runCli(['cluster', 'show', 'town-square', '--json'], {env})).stdout)
    expect(shown.cluster).toMatchObject({name: 'Town Square', topic: '#town'})

    const withJoinToken = await runCli(['cluster', 'delete', created.cluster_id, '--admin-token', created.token], {env})
    expect(withJoinToken.code).toBe(2)
    expect(oneLine(withJoinToken.stderr)).toContain('That is the join token (ck_…); delete needs the admin token (ak_…)')
    const wrong = await runCli(['cluster', 'delete', created.cluster_id, '--admin-token', 'ak_wrong', '--json'], {env})
    expect(wrong.code).toBe(1)
    expect(JSON.parse(wrong.stdout).error).toMatchObject({code: expect.any(String), message: expect.any(String)})

    const deleted = await runCli(['cluster', 'delete', created.cluster_id, '--json'], {env: {...env, MESH_CLUSTER_ADMIN_TOKEN: created.admin_token}})
    expect(deleted.code).toBe(0)
    expect(JSON.parse(deleted.stdout)).toEqual({ok: true, cluster_id: created.cluster_id})
    expect((await runCli(['cluster', 'show', 'town-square'], {env})).code).toBe(1)
  })

  it('refuses bad flags and an unreachable relay with one clear line', async () => {
    const badProps = await runCli(['cluster', 'create', '--props-json', '[1]'], {env})
    expect(badProps.code).toBe(2)
    expect(oneLine(badProps.stderr)).toContain('--props-json must be a JSON object')
    const badRelay = await runCli(['cluster', 'list', '--relay', 'not a url'])
    expect(badRelay.code).toBe(2)
    const down = await runCli(['cluster', 'list', '--relay', 'http://127.0.0.1:1'])
    expect(down.code).toBe(1)
    expect(oneLine(down.stderr)).toContain('Cannot reach the relay at http://127.0.0.1:1')
    expect(down.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('mesh cluster join in pipe mode', () => {
  it('sends stdin lines and prints every frame as NDJSON, exiting 0 once stdin ends and the acks are in', async () => {
    const {cluster_id, token} = await client.create({name: 'pipe'})
    const join = spawnCli(['cluster', 'join', cluster_id, '--token', token, '--agent', 'cli', '--did', 'did:key:zCli', '--json'], {env})
    expect(await join.nextJson()).toMatchObject({type: 'ready', you: 'cli', you_did: 'did:key:zCli', online: ['cli']})

    const peer = client.connection(cluster_id, {agent: 'peer', token})
    await peer.connect()
    expect(await join.nextJson()).toMatchObject({type: 'presence', agent: 'peer', status: 'online'})

    let heard = nextMessage(peer)
    join.child.stdin.write('hello from a pipe\n')
    expect(await heard).toMatchObject({from: 'cli', from_did: 'did:key:zCli', to: null, payload: 'hello from a pipe'})
    expect(await join.nextJson()).toEqual({type: 'ack', to: null, delivered: 1})

    heard = nextMessage(peer)
    join.child.stdin.write('{"to":"peer","payload":{"text":"just you"}}\n')
    expect(await heard).toMatchObject({from: 'cli', to: 'peer', payload: {text: 'just you'}})
    expect(await join.nextJson()).toEqual({type: 'ack', to: 'peer', delivered: 1})

    heard = nextMessage(peer)
    join.child.stdin.write('/msg peer slash form\n{not json\n')
    expect(await heard).toMatchObject({to: 'peer', payload: 'slash form'})
    expect(await join.nextJson()).toMatchObject({type: 'ack', to: 'peer'})

    peer.broadcast({text: 'back at you'})
    expect(await join.nextJson()).toMatchObject({type: 'message', from: 'peer', to: null, payload: {text: 'back at you'}})

    join.child.stdin.end('last words\n')
    expect(await join.nextJson()).toMatchObject({type: 'ack', delivered: 1})
    expect(await join.exited).toBe(0)
    expect(join.stderr()).toContain('line not sent: line starts with "{" but is not valid JSON')
    peer.close()
  })

  it('passes payloads through exactly both ways: big numbers, deep nesting, one line per frame', async () => {
    const {cluster_id, token} = await client.create({name: 'exact'})
    const join = spawnCli(['cluster', 'join', cluster_id, '--token', token, '--agent', 'cli', '--json'], {env})
    expect(await join.nextJson()).toMatchObject({type: 'ready'})
    const peer = client.connection(cluster_id, {agent: 'peer', token})
    const peerRaw: string[] = []
    peer.on('frame', (_frame, raw) => peerRaw.push(raw))
    await peer.connect()
    await join.nextJson() // presence of peer

    // Out: a JSON line is sent as written, so the digits survive and any depth goes through.
    const deep = '['.repeat(20_000) + ']'.repeat(20_000)
    const heard = nextMessage(peer)
    join.child.stdin.write(`{"payload": {"id": 12345678901234567890, "deep": ${deep}}}\n`)
    await heard
    expect(peerRaw.at(-1)).toContain(`"payload":{"id": 12345678901234567890, "deep": ${deep}}}`)
    expect(await join.nextJson()).toEqual({type: 'ack', to: null, delivered: 1})

    // In: a frame whose payload spans lines is printed on one line, its numbers as sent.
    peer.sendRaw('{"payload": {\n  "id": 98765432109876543210,\r\n  "big": 1e400\n}}')
    const line = await join.nextLine()
    expect(line).not.toMatch(/[\r\n]/)
    expect(line).toContain('"id": 98765432109876543210')
    expect(line).toContain('"big": 1e400')
    expect(JSON.parse(line)).toMatchObject({type: 'message', from: 'peer'})
    join.child.stdin.end()
    expect(await join.exited).toBe(0)
    peer.close()
  })

  it('prints closed{deleted} and exits 0 when the cluster is deleted, stdin still open', async () => {
    const {cluster_id, token, admin_token} = await client.create({name: 'doomed'})
    const join = spawnCli(['cluster', 'join', cluster_id, '--token', token, '--agent', 'cli'], {env}) // not a TTY: pipe mode without --json
    expect(await join.nextJson()).toMatchObject({type: 'ready'})
    await client.delete(cluster_id, admin_token)
    expect(await join.nextJson()).toEqual({type: 'closed', reason: 'deleted'})
    expect(await join.exited).toBe(0)
    expect(join.stderr()).toContain(`cluster ${cluster_id} was deleted`)
  })

  it('exits 1 with one JSON error line for a wrong token or an unknown cluster', async () => {
    const {cluster_id} = await client.create({name: 'locked'})
    const wrong = spawnCli(['cluster', 'join', cluster_id, '--token', 'ck_nope', '--agent', 'eve', '--json'], {env})
    expect(JSON.parse(await wrong.nextLine())).toMatchObject({error: {code: 'cluster_unauthorized'}})
    expect(await wrong.exited).toBe(1)

    const unknown = await runCli(['cluster', 'join', 'c_doesnotexist', '--agent', 'eve'], {env})
    expect(unknown.code).toBe(1)
    expect(oneLine(unknown.stderr)).toContain('No such cluster (404)')
    expect(unknown.stdout).toBe('')
  })

  it('joins a public cluster by slug without a token, as a ghost nobody sees', async () => {
    const {cluster_id} = await client.create({name: 'Open Plaza', visibility: 'public'})
    const peer = client.connection(cluster_id, {agent: 'peer'})
    await peer.connect()
    const presences: unknown[] = []
    peer.on('presence', (frame) => presences.push(frame))
    const join = spawnCli(['cluster', 'join', 'open-plaza', '--agent', 'shadow', '--vis', 'ghost', '--json'], {env})
    expect(await join.nextJson()).toMatchObject({type: 'ready', you: 'shadow', public: true, online: ['peer']})
    const heard = nextMessage(peer)
    join.child.stdin.end('boo\n')
    expect(await heard).toMatchObject({from: 'shadow', payload: 'boo'})
    expect(await join.exited).toBe(0)
    expect(presences).toEqual([])
    peer.close()
  })

  it('reconnects after server_shutdown; a relay that comes back without the cluster means it is gone', async () => {
    const own = await startRelay()
    const ownClient = new ClusterClient({relay: own.url})
    const {cluster_id, token} = await ownClient.create({name: 'restart'})
    const join = spawnCli(['cluster', 'join', cluster_id, '--token', token, '--agent', 'cli', '--json'], {env: {MESH_RELAY: own.url}})
    expect(await join.nextJson()).toMatchObject({type: 'ready'})
    await own.stop()
    expect(await join.nextJson()).toEqual({type: 'closed', reason: 'server_shutdown'})
    // The restarted relay has a fresh in-memory store: the id answers 404, which after a successful join means deleted.
    const again = await startRelay(own.port)
    try {
      expect(await join.exited).toBe(0)
      expect(join.stderr()).toMatch(/reconnecting in \d+s \(attempt 1\)/)
      expect(join.stderr()).toContain(`cluster ${cluster_id} was deleted`)
    } finally {
      await again.stop()
    }
  })
})
