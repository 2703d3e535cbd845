import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {DaemonSettings} from '../../../src/daemon/settings.js'
import {scrubber} from '../../../src/daemon/transport/link.js'
import {readInviteToken, resolveTarget, type TransportTarget} from '../../../src/daemon/transport/target.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-transport-'))
  dirs.push(dir)
  return dir
}

const settings = (transport: Partial<DaemonSettings['transport']>, id: string | null = 'demo'): DaemonSettings => ({
  id,
  port: 5570,
  architect: {auto: false, minIntervalSeconds: 60},
  snapshots: {enabled: true, retentionDays: 7},
  git: {autoPull: false, autoCommit: false, branch: 'main'},
  standardUrl: null,
  transport: {workflow: 'websocket', endpoint: null, fallback: null, ...transport},
  tasks: {archiveAfterDays: null},
  problems: [],
})

const resolve = (transport: Partial<DaemonSettings['transport']>, options: {env?: NodeJS.ProcessEnv; invite?: string; id?: string | null} = {}) => {
  const dir = tempDir()
  const invitePath = join(dir, 'invite.url')
  if (options.invite !== undefined) writeFileSync(invitePath, options.invite)
  return resolveTarget({settings: settings(transport, options.id === undefined ? 'demo' : options.id), env: options.env ?? {}, invitePath})
}
const connect = (target: TransportTarget) => {
  if (target.kind !== 'connect') throw new Error(`expected a connect target, got ${target.kind}: ${target.reason}`)
  return target
}

describe('the transport target', () => {
  it('joins a ws(s) endpoint as the ghost daemon:<id>, showing it without a query', async () => {
    const target = connect(await resolve({endpoint: 'wss://relay.example.com/v1/clusters/c_abc/ws'}))
    expect(target).toMatchObject({endpoint: 'wss://relay.example.com/v1/clusters/c_abc/ws', clusterId: 'c_abc', handle: 'daemon:demo', token: null})
    const url = new URL(target.url)
    expect(Object.fromEntries(url.searchParams)).toEqual({agent: 'daemon:demo', vis: 'ghost'})
  })

  it('takes the token of .mesh/credentials/invite.url and never shows it', async () => {
    const target = connect(await resolve({endpoint: 'ws://user:pw@127.0.0.1:9/v1/clusters/c_abc/ws?agent=someone'}, {invite: '\nhttps://hub.example.com/join/c_abc?token=ck_secret123\n'}))
    expect(target.token).toBe('ck_secret123')
    expect(new URL(target.url).searchParams.get('token')).toBe('ck_secret123')
    expect(new URL(target.url).searchParams.get('agent')).toBe('daemon:demo')
    expect(target.endpoint).toBe('ws://127.0.0.1:9/v1/clusters/c_abc/ws')
    const scrub = scrubber(target)
    expect(scrub(`Cannot reach ${target.url}: refused`)).toBe(`Cannot reach ${target.endpoint}: refused`)
    expect(scrub('echo ck_secret123 and ws://a:b@h/x?token=ck_other&q=1 done')).toBe('echo *** and ws://h/x done')
  })

  it('connects without a token when the invite has none, is no URL, or is absent', async () => {
    const endpoint = 'ws://127.0.0.1:9/v1/clusters/c_abc/ws'
    expect(connect(await resolve({endpoint}, {invite: 'https://hub.example.com/join'}))).toMatchObject({token: null, notes: [expect.stringMatching(/no token/)]})
    expect(connect(await resolve({endpoint}, {invite: 'not a url'}))).toMatchObject({token: null, notes: [expect.stringMatching(/not a URL/)]})
    expect(connect(await resolve({endpoint}))).toMatchObject({token: null, notes: []})
  })

  it('reports an unreadable invite file without its content', async () => {
    const dir = tempDir()
    // A folder where the file should be: not a regular file, never read.
    mkdirSync(join(dir, 'invite.url'))
    const invite = await readInviteToken(join(dir, 'invite.url'))
    expect(invite.token).toBeNull()
    expect(invite.problem).toMatch(/invite\.url is not a regular file, not read/)
  })

  it('never reads an invite through a link (issue 18): no token, and the problem names no target', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'elsewhere.url'), 'wss://relay.example.com/v1/clusters/c_x/ws?token=ck_from_outside\n')
    symlinkSync(join(dir, 'elsewhere.url'), join(dir, 'invite.url'))
    const invite = await readInviteToken(join(dir, 'invite.url'))
    expect(invite).toEqual({token: null, problem: expect.stringMatching(/invite\.url is a symbolic link, not read/)})
    expect(invite.problem).not.toMatch(/ck_from_outside|elsewhere/)
  })

  it('converts http(s) only for a relay cluster socket path', async () => {
    expect(connect(await resolve({endpoint: 'https://relay.example.com/mesh/v1/clusters/c_x/ws'})).endpoint).toBe('wss://relay.example.com/mesh/v1/clusters/c_x/ws')
    expect(connect(await resolve({endpoint: 'http://127.0.0.1:8080/v1/clusters/c_x/ws'})).endpoint).toBe('ws://127.0.0.1:8080/v1/clusters/c_x/ws')
    const other = await resolve({endpoint: 'https://hub.example.com/rooms/demo?token=ck_x'})
    expect(other).toMatchObject({kind: 'skipped', endpoint: 'https://hub.example.com/rooms/demo'})
    expect(JSON.stringify(other)).not.toContain('ck_x')
  })

  it('skips other workflows, other schemes, a missing endpoint, and MESH_DAEMON_TRANSPORT=off', async () => {
    expect(await resolve({workflow: 'sse', endpoint: 'https://hub.example.com/sse'})).toMatchObject({kind: 'skipped', reason: expect.stringMatching(/workflow is sse/)})
    expect(await resolve({workflow: 'nats', endpoint: 'nats://127.0.0.1:4222'})).toMatchObject({kind: 'skipped', reason: expect.stringMatching(/workflow is nats/)})
    expect(await resolve({endpoint: 'nats://127.0.0.1:4222'})).toMatchObject({kind: 'skipped', reason: expect.stringMatching(/not a ws:\/\/ or wss:\/\/ URL/)})
    expect(await resolve({endpoint: null})).toMatchObject({kind: 'skipped', reason: expect.stringMatching(/no transport.endpoint/)})
    expect(await resolve({endpoint: 'not a url'})).toMatchObject({kind: 'skipped', reason: expect.stringMatching(/is not a URL/)})
    expect(await resolve({endpoint: 'wss://relay.example.com/v1/clusters/c_x/ws'}, {env: {MESH_DAEMON_TRANSPORT: 'OFF'}})).toMatchObject({kind: 'off'})
  })

  it('names the cluster from the path, else from the project', async () => {
    expect(connect(await resolve({endpoint: 'wss://h/v1/clusters/my%20room/ws'})).clusterId).toBe('my room')
    expect(connect(await resolve({endpoint: 'wss://h/v1/clusters/demo'})).clusterId).toBe('demo')
    expect(connect(await resolve({endpoint: 'wss://h/socket'}, {id: null}))).toMatchObject({clusterId: 'cluster', handle: 'daemon:project'})
  })
})
