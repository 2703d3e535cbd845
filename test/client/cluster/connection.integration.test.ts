import {once} from 'node:events'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createBackoff} from '../../../src/client/cluster/backoff.js'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import type {ClusterConnection, ClusterConnectionEvents, ConnectionStatus} from '../../../src/client/cluster/connection.js'
import type {HostedServer} from '../../../src/http/index.js'
import {startRelay} from '../../commands/cluster/harness.js'
import {startFakeRelay, type FakeRelay} from '../../support/fake-relay.js'

/** Timers the test fires by hand, so reconnect delays are asserted, never slept. */
function manualTimers() {
  const pending = new Set<{fn: () => void; ms: number}>()
  return {
    pending,
    timers: {
      setTimeout: (fn: () => void, ms: number) => {
        const timer = {fn, ms}
        pending.add(timer)
        return timer
      },
      clearTimeout: (handle: unknown) => void pending.delete(handle as {fn: () => void; ms: number}),
    },
    /** Runs the one pending timer of the given delay. */
    fire(ms: number) {
      const timer = [...pending].find((t) => t.ms === ms)
      if (!timer) throw new Error(`no timer of ${ms} ms; pending: ${[...pending].map((t) => t.ms)}`)
      pending.delete(timer)
      timer.fn()
    },
  }
}

const next = <K extends keyof ClusterConnectionEvents>(connection: ClusterConnection, event: K) =>
  once(connection, event as string) as Promise<ClusterConnectionEvents[K]>
const statusOf = (connection: ClusterConnection, state: ConnectionStatus['state']) =>
  new Promise<ConnectionStatus>((resolve) => {
    const check = (status: ConnectionStatus) => {
      if (status.state !== state) return
      connection.off('status', check)
      resolve(status)
    }
    connection.on('status', check)
  })

describe('ClusterConnection against the real relay', () => {
  let server: HostedServer
  let client: ClusterClient
  const open: ClusterConnection[] = []
  const connection = (clusterId: string, join: Parameters<ClusterClient['connection']>[1]) => {
    const made = client.connection(clusterId, join)
    open.push(made)
    return made
  }
  beforeEach(async () => {
    server = await startRelay()
    client = new ClusterClient({relay: server.url})
  })
  afterEach(async () => {
    for (const made of open.splice(0)) made.close()
    await server.stop()
  })

  it('joins, keeps the roster, broadcasts and sends directly with acks and no echo', async () => {
    const {cluster_id, token} = await client.create({name: 'conn'})
    const ada = connection(cluster_id, {agent: 'ada', token, did: 'did:key:zAda'})
    const ready = await ada.connect()
    expect(ready).toMatchObject({type: 'ready', you: 'ada', you_did: 'did:key:zAda', online: ['ada']})

    const bob = connection(cluster_id, {agent: 'bob', token})
    const joined = next(ada, 'presence')
    await bob.connect()
    expect((await joined)[0]).toMatchObject({agent: 'bob', status: 'online'})
    expect(ada.roster.online()).toEqual(['ada', 'bob'])

    const adaFrames: string[] = []
    ada.on('frame', (frame) => adaFrames.push(frame.type))
    const heard = next(bob, 'message')
    const acked = next(ada, 'ack')
    ada.broadcast({text: 'hello'})
    expect((await heard)[0]).toMatchObject({from: 'ada', from_did: 'did:key:zAda', to: null, payload: {text: 'hello'}})
    expect((await acked)[0]).toEqual({type: 'ack', to: null, delivered: 1})

    const direct = next(bob, 'message')
    ada.direct('bob', 'psst')
    expect((await direct)[0]).toMatchObject({from: 'ada', to: 'bob', payload: 'psst'})
    await ada.drain()
    expect(ada.unacknowledged).toBe(0)
    expect(adaFrames).toEqual(['ack', 'ack'])

    const left = next(ada, 'roster')
    bob.close()
    expect((await left)[0].find((entry) => entry.agent === 'bob')?.status).toBe('offline')
  })

  it('rejects connect with clear errors for 401, 404 and an unreachable relay', async () => {
    const {cluster_id} = await client.create({name: 'conn'})
    await expect(connection(cluster_id, {agent: 'eve', token: 'ck_wrong'}).connect()).rejects.toMatchObject({kind: 'unauthorized', code: 'cluster_unauthorized'})
    await expect(connection('c_missing', {agent: 'eve'}).connect()).rejects.toMatchObject({kind: 'not_found', code: 'cluster_not_found'})
    const closedPort = new ClusterClient({relay: 'http://127.0.0.1:1'}).connection('c_x', {agent: 'eve'})
    await expect(closedPort.connect()).rejects.toMatchObject({code: 'relay_unreachable'})
    expect(closedPort.state.state).toBe('failed')
  })

  it('is gone, without reconnecting, when the cluster is deleted', async () => {
    const {cluster_id, token, admin_token} = await client.create({name: 'doomed'})
    const ada = connection(cluster_id, {agent: 'ada', token})
    await ada.connect()
    const gone = next(ada, 'gone')
    await client.delete(cluster_id, admin_token)
    expect((await gone)[0]).toEqual({reason: 'deleted'})
    expect(ada.state.state).toBe('gone')
  })
})

/**
 * Dropping sockets, refusing the next upgrade with a chosen status, closing
 * with a chosen reason: the fake relay does these on cue; everything it
 * checks the real relay also does (see the first describe and the CLI tests).
 */
describe('ClusterConnection reconnecting (a fake relay that fails on cue)', () => {
  let relay: FakeRelay
  let client: ClusterClient
  const open: ClusterConnection[] = []
  const connection = (clusterId: string, join: Parameters<ClusterClient['connection']>[1], options: Parameters<ClusterClient['connection']>[2] = {}) => {
    const made = client.connection(clusterId, join, {backoff: createBackoff({baseMs: 100, maxMs: 1000, random: () => 0}), ...options})
    open.push(made)
    return made
  }

  beforeEach(async () => {
    relay = await startFakeRelay()
    client = new ClusterClient({relay: relay.url})
  })
  afterEach(async () => {
    for (const made of open.splice(0)) made.close()
    await relay.close()
  })

  it('reconnects with backoff after a dropped socket, sending what was typed meanwhile', async () => {
    const {cluster_id, token} = relay.create()
    const clock = manualTimers()
    const ada = connection(cluster_id, {agent: 'ada', token}, {timers: clock.timers, now: () => 1000})
    const bobClock = manualTimers()
    const bob = connection(cluster_id, {agent: 'bob', token}, {timers: bobClock.timers})
    await ada.connect()
    await bob.connect()

    const reconnecting = statusOf(ada, 'reconnecting')
    const bobReconnecting = statusOf(bob, 'reconnecting')
    relay.dropAll()
    expect(await reconnecting).toMatchObject({state: 'reconnecting', attempt: 1, retryInMs: 100, retryAt: 1100})
    expect(ada.roster.online()).toEqual([])
    ada.broadcast('while away') // queued

    const refused = statusOf(ada, 'reconnecting')
    relay.refuseNext(503)
    clock.fire(100)
    expect(await refused).toMatchObject({attempt: 2, retryInMs: 200, lastError: expect.stringContaining('(503)')})

    // bob comes back first so he hears the queued message.
    await bobReconnecting
    const bobReady = next(bob, 'ready')
    bobClock.fire(100)
    await bobReady
    const heard = next(bob, 'message')
    const ready = next(ada, 'ready')
    clock.fire(200)
    expect((await ready)[0].online.sort()).toEqual(['ada', 'bob'])
    expect((await heard)[0]).toMatchObject({from: 'ada', payload: 'while away'})
    expect(ada.state).toMatchObject({state: 'connected', attempt: 0})
  })

  it('reconnects after closed{server_shutdown}, and is gone for good after closed{deleted}', async () => {
    const {cluster_id, token} = relay.create()
    const clock = manualTimers()
    const ada = connection(cluster_id, {agent: 'ada', token}, {timers: clock.timers})
    await ada.connect()

    const reconnecting = statusOf(ada, 'reconnecting')
    relay.kick(cluster_id, 'server_shutdown')
    expect(await reconnecting).toMatchObject({lastError: 'relay closed the socket: server_shutdown'})
    const ready = next(ada, 'ready')
    clock.fire(100)
    await ready

    const gone = next(ada, 'gone')
    relay.kick(cluster_id, 'deleted')
    expect((await gone)[0]).toEqual({reason: 'deleted'})
    expect(ada.state.state).toBe('gone')
    expect(clock.pending.size).toBe(0)
    expect(() => ada.broadcast('anyone?')).toThrow(/closed/)
  })

  it('treats 404 at reconnect as deleted and 401 at reconnect as fatal', async () => {
    const {cluster_id, token} = relay.create()
    const clock = manualTimers()
    const ada = connection(cluster_id, {agent: 'ada', token}, {timers: clock.timers})
    const bob = connection(cluster_id, {agent: 'bob', token}, {timers: clock.timers})
    await ada.connect()
    await bob.connect()
    const both = Promise.all([statusOf(ada, 'reconnecting'), statusOf(bob, 'reconnecting')])
    relay.dropAll()
    await both

    const gone = next(ada, 'gone')
    relay.refuseNext(404)
    clock.fire(100)
    await gone

    const fatal = next(bob, 'fatal')
    relay.refuseNext(401)
    clock.fire(100)
    expect((await fatal)[0]).toMatchObject({code: 'cluster_unauthorized'})
    expect(bob.state.state).toBe('failed')
  })

  it('retries a failed first connect only when asked, and gives up after maxAttempts', async () => {
    const {cluster_id, token} = relay.create()
    const clock = manualTimers()
    relay.refuseNext(503, 5)
    const ada = connection(cluster_id, {agent: 'ada', token}, {timers: clock.timers, retryInitial: true, maxAttempts: 2})
    const fatal = next(ada, 'fatal')
    const connecting = ada.connect().catch((error: unknown) => error)
    await statusOf(ada, 'reconnecting')
    clock.fire(100)
    await statusOf(ada, 'reconnecting')
    clock.fire(200)
    expect((await fatal)[0]).toMatchObject({code: 'relay_refused'})
    expect(await connecting).toMatchObject({code: 'relay_refused'})
    expect(relay.upgrades).toBe(3)
  })
})
