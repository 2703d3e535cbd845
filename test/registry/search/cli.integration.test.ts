import {execFile} from 'node:child_process'
import {promisify} from 'node:util'
import Koa from 'koa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {errorMiddleware, notFoundMiddleware} from '../../../src/http/error-middleware.js'
import {listen, type Listening} from '../../../src/http/listen.js'
import {silentLogger} from '../../../src/lib/log.js'
import {searchRegistry} from '../../../src/client/registry/search-client.js'
import {createSearchPart, type SearchPart} from '../../../src/registry/search/part.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {agentRecord, probe, putAgent, testContext} from './fixtures.js'

// Runs the built binary (dist/ must be fresh: `npm test` builds first).
const run = promisify(execFile)
const mesh = (args: string[], env: Record<string, string> = {}) =>
  run('node', ['bin/run.js', ...args], {env: {...process.env, NO_COLOR: '1', ...env}}).then(
    (out) => ({code: 0, ...out}),
    (error: {code: number; stdout: string; stderr: string}) => ({code: error.code, stdout: error.stdout, stderr: error.stderr}),
  )

let server: Listening
let part: SearchPart

beforeAll(async () => {
  const store = createMemoryRegistryStore()
  const now = Date.now()
  await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Generates images from text', tags: ['image'], produces: ['image/png']}, {
    lastSeenMs: now,
    probe: probe({operational: true, card_match: '1/1', skills: [{id: 'draw', url: 'https://painter.example.com/v1/draw', answering: true}]}),
  }))
  await putAgent(store, agentRecord('sketcher', {name: 'Sketcher', description: 'Draws images as sketches', tags: ['image'], produces: ['image/svg+xml']}, {lastSeenMs: now}))
  part = createSearchPart(testContext(store, createLocalBus(), Date.now), {resyncMs: 0})
  const koa = new Koa()
  koa.silent = true
  koa.use(errorMiddleware(silentLogger))
  koa.use(notFoundMiddleware())
  koa.use(part.middleware!)
  server = await listen(koa.callback())
})

afterAll(async () => {
  await part.close()
  await server.close()
})

describe('searchRegistry', () => {
  it('calls POST /v1/search and returns the answer', async () => {
    const answer = await searchRegistry({prompt: 'images', filters: {limit: 1}}, {registry: server.url + '/'})
    expect(answer.results.map((r) => r.agent_id)).toEqual(['painter'])
  })

  it('turns a registry error into a MeshError with its code and field', async () => {
    await expect(searchRegistry({prompt: 'x', filters: {limit: 0}}, {registry: server.url})).rejects.toMatchObject({code: 'invalid_body', field: 'filters.limit'})
  })

  it('says when the registry cannot be reached', async () => {
    const closed = await listen(() => {})
    await closed.close()
    await expect(searchRegistry({prompt: 'x'}, {registry: closed.url})).rejects.toMatchObject({code: 'registry_unreachable'})
  })
})

describe('mesh search', () => {
  it('prints tab-separated lines on a pipe', async () => {
    const out = await mesh(['search', 'generate images', '--registry', server.url])
    expect(out.code).toBe(0)
    const lines = out.stdout.trim().split('\n')
    expect(lines.map((line) => line.split('\t')[0])).toEqual(['painter', 'sketcher'])
    expect(lines[0].split('\t')).toEqual(['painter', 'Painter', expect.any(String), 'true', '1/1', 'https://painter.example.com', 'https://painter.example.com/v1/draw'])
  })

  it('passes filters and prints the answer as JSON', async () => {
    const out = await mesh(['search', 'images', '--operational-only', '--limit', '5', '--json'], {MESH_REGISTRY: server.url})
    expect(out.code).toBe(0)
    const answer = JSON.parse(out.stdout)
    expect(answer.results.map((r: {agent_id: string}) => r.agent_id)).toEqual(['painter'])
    const produced = JSON.parse((await mesh(['search', 'images', '--produces', 'image/svg+xml', '--json', '--registry', server.url])).stdout)
    expect(produced.results.map((r: {agent_id: string}) => r.agent_id)).toEqual(['sketcher'])
  })

  it('refuses a bad limit or registry URL as a usage error', async () => {
    const limit = await mesh(['search', 'x', '--limit', '0', '--registry', server.url])
    expect(limit.code).toBe(2)
    const url = await mesh(['search', 'x', '--registry', 'ftp://nowhere'])
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('--registry must be an http(s) URL')
  })

  it('fails with one clear line when the registry is down', async () => {
    const closed = await listen(() => {})
    await closed.close()
    const out = await mesh(['search', 'x', '--registry', closed.url])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`Cannot reach the registry at ${closed.url}`)
    expect(out.stderr).not.toMatch(/\n\s+at /)
  })
})
