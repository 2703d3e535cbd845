import {existsSync, readFileSync, realpathSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {silentLogger} from '../../src/lib/log.js'
import {startDaemon} from '../../src/daemon/start.js'
import {getValidator} from '../../src/lib/schemas.js'
import {caught} from '../support/caught.js'
import {makeRepo} from '../standard/fixtures.js'
import {startHarness, type DaemonHarness} from './harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('daemon core', () => {
  it('answers /health with the spec fields and writes daemon.json and a 0600 portal token', async () => {
    // The core alone: the areas add warnings of their own (git, standard), tested with them.
    harness = await startHarness({areas: []})
    const health = await harness.call('GET', '/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ok: true, implementation: 'mesh-ts', cluster_id: 'demo', tls: false, endpoint: harness.url})
    expect(health.body.features).toContain('features.debug.stream.v1')
    expect(health.body.context_tree.token_estimate).toBeGreaterThan(0)
    expect(health.body.warnings).toEqual([])
    expect(getValidator('daemon-health')(health.body)).toBe(true)
    expect(getValidator('daemon-info')((await harness.call('GET', '/info')).body)).toBe(true)

    const runtime = JSON.parse(readFileSync(join(harness.repo.root, '.mesh/.runtime/daemon.json'), 'utf8'))
    expect(runtime).toMatchObject({port: harness.running.port, pid: process.pid})
    expect(typeof runtime.started_at).toBe('string')
    const tokenFile = join(harness.repo.root, '.mesh/credentials/portal-token')
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(harness.token)
  })

  it('removes daemon.json on a clean stop and keeps the portal token for the next start', async () => {
    harness = await startHarness()
    const {root} = harness.repo
    const token = harness.token
    await harness.running.stop()
    expect(existsSync(join(root, '.mesh/.runtime/daemon.json'))).toBe(false)
    const again = await startDaemon({root, logger: silentLogger, port: 0})
    expect(again.daemon.context.portalToken).toBe(token)
    await again.stop()
    harness.repo.cleanup()
    harness = undefined
  })

  it('refuses a second daemon in the same project and recovers from a killed one', async () => {
    harness = await startHarness()
    const error = await caught(startDaemon({root: harness.repo.root, logger: silentLogger, port: 0}))
    expect(error).toMatchObject({code: 'daemon_running'})
    const {root} = harness.repo
    await harness.running.stop()
    // A daemon killed with SIGKILL leaves both files behind, naming a dead pid.
    writeFileSync(join(root, '.mesh/.runtime/daemon.lock'), '999999')
    writeFileSync(join(root, '.mesh/.runtime/daemon.json'), JSON.stringify({port: 1, pid: 999999, started_at: 'x', version: '0'}))
    const next = await startDaemon({root, logger: silentLogger, port: 0})
    expect(JSON.parse(readFileSync(join(root, '.mesh/.runtime/daemon.json'), 'utf8')).pid).toBe(process.pid)
    const boot = () => next.daemon.context.debug.tail({lastSecs: 600, tags: ['boot']}).events.map((event) => event.msg)
    expect(boot()).toContain('took over the daemon lock of pid 999999: process 999999 is not running')
    await next.stop()
    // Killed before it listened: a lock and no runtime file. The takeover is said all the same.
    writeFileSync(join(root, '.mesh/.runtime/daemon.lock'), `999998 ${realpathSync(root)}`)
    const third = await startDaemon({root, logger: silentLogger, port: 0})
    expect(third.daemon.context.debug.tail({lastSecs: 600, tags: ['boot']}).events.map((event) => event.msg)).toContain('took over the daemon lock of pid 999998: process 999998 is not running')
    await third.stop()
    expect(existsSync(join(root, '.mesh/.runtime/daemon.lock'))).toBe(false)
    harness.repo.cleanup()
    harness = undefined
  })

  it('refuses requests whose Host or Origin is not loopback (DNS rebinding)', async () => {
    harness = await startHarness()
    const byName = await harness.call('GET', '/health', {headers: {host: 'evil.example:5570'}})
    expect(byName.status).toBe(403)
    expect(byName.body.error.code).toBe('host_not_loopback')
    const fromPage = await harness.call('GET', '/health', {headers: {origin: 'http://evil.example'}})
    expect(fromPage.status).toBe(403)
    expect(fromPage.body.error.code).toBe('origin_not_loopback')
    const local = await harness.call('GET', '/health', {headers: {host: `localhost:${harness.running.port}`, origin: 'http://localhost:3000'}})
    expect(local.status).toBe(200)
  })

  it('refuses a request that names another project', async () => {
    harness = await startHarness()
    const other = await harness.call('GET', '/health', {headers: {'x-mesh-project': 'other'}})
    expect(other.status).toBe(403)
    expect(other.body.error.code).toBe('project_mismatch')
    expect((await harness.call('GET', '/health', {headers: {'x-mesh-project': 'demo'}})).status).toBe(200)
  })

  it('opens /events only with the portal token and sends envelopes', async () => {
    harness = await startHarness()
    const wsUrl = harness.url.replace('http', 'ws') + '/events'
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl)
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(refused).toBe(401)
    const ws = new WebSocket(wsUrl, {headers: {authorization: `Bearer ${harness.token}`}})
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))
    const received = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))))
    harness.running.daemon.context.events.publish('links.updated', {id: 'api'})
    const event = await received
    expect(getValidator('daemon-event')(event)).toBe(true)
    expect(event).toMatchObject({type: 'links.updated', data: {id: 'api'}})
    expect(new Date(event.ts).toISOString()).toBe(event.ts)
    ws.close()
  })

  it('answers unknown routes with the JSON error body', async () => {
    harness = await startHarness()
    const missing = await harness.call('GET', '/nope')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe('not_found')
  })
})

describe('daemon core without a project file', () => {
  it('starts on a project whose cluster.yaml is broken and says so in the debug stream', async () => {
    const repo = makeRepo({'.mesh/public/cluster.yaml': 'id: [unclosed'})
    harness = await startHarness({repo})
    const health = await harness.call('GET', '/health')
    expect(health.body.cluster_id).toBeNull()
    await harness.running.daemon.context.debug.flush()
    const lines = readFileSync(join(repo.root, '.mesh/.runtime/debug.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.some((l) => l.tag === 'boot' && /cluster.yaml/.test(l.msg))).toBe(true)
  })
})

describe('debug routes', () => {
  it('needs the portal token on both routes', async () => {
    harness = await startHarness()
    expect((await harness.call('GET', '/debug/tail')).status).toBe(401)
    const wrong = await harness.call('POST', '/debug/log', {headers: {authorization: 'Bearer nope'}, body: '{}'})
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe('invalid_portal_token')
  })

  it('stamps posted events as the IDE, masks secrets, and tails them by tag and level', async () => {
    harness = await startHarness()
    const secret = 'Bearer ' + 'x'.repeat(40)
    const posted = await harness.call('POST', '/debug/log', {
      auth: true,
      body: JSON.stringify({events: [
        {lvl: 'info', tag: 'ux.run-all', msg: `ran with ${secret}`, src: 'daemon', data: {token: 'abc', nested: {password: 'p', header: secret, ok: 'short'}}},
        {lvl: 'debug', tag: 'ux.validation', msg: 'checked'},
      ]}),
    })
    expect(posted.status).toBe(200)
    expect(posted.body).toEqual({accepted: 2})
    const tail = await harness.call('GET', '/debug/tail?tag=ux&level=info', {auth: true})
    expect(tail.status).toBe(200)
    expect(tail.body.window_secs).toBe(300)
    expect(tail.body.events).toHaveLength(1)
    const [event] = tail.body.events
    expect(event).toMatchObject({src: 'Architect IDE', lvl: 'info', tag: 'ux.run-all', msg: `ran with ${secret}`})
    expect(event.data).toEqual({token: '***', nested: {password: '***', header: '[redacted]', ok: 'short'}})
    expect(event.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    // The file holds the same redacted line: no secret on disk.
    await harness.running.daemon.context.debug.flush()
    const file = readFileSync(join(harness.repo.root, '.mesh/.runtime/debug.jsonl'), 'utf8')
    expect(file).not.toContain('"abc"')
    expect(file).not.toContain(harness.token)
  })

  it('refuses a malformed batch whole and bad query parameters with stable codes', async () => {
    harness = await startHarness()
    const bad = await harness.call('POST', '/debug/log', {auth: true, body: JSON.stringify({events: [{lvl: 'info', tag: 'ok', msg: 'a'}, {lvl: 'loud', tag: 'ok', msg: 'b'}]})})
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_body')
    const tail = await harness.call('GET', '/debug/tail?last=0', {auth: true})
    expect(tail.body.events.filter((e: any) => e.tag === 'ok')).toEqual([])
    expect((await harness.call('POST', '/debug/log', {auth: true, body: '{'})).body.error.code).toBe('invalid_json')
    expect((await harness.call('GET', '/debug/tail?last=-1', {auth: true})).body.error.code).toBe('invalid_query')
    expect((await harness.call('GET', '/debug/tail?level=loud', {auth: true})).body.error.code).toBe('invalid_query')
    expect((await harness.call('GET', '/debug/tail?tag=Bad_Tag', {auth: true})).body.error.code).toBe('invalid_query')
    expect((await harness.call('GET', '/debug/tail?last=1&last=2', {auth: true})).body.error.code).toBe('invalid_query')
  })
})
