import {afterEach, describe, expect, it} from 'vitest'
import {MeshError} from '../../../src/lib/errors.js'
import {captureLogger} from '../../support/log-capture.js'
import {CORS_HEADERS} from '../../../src/agent/kit/constants.js'
import {echoHandler, echoSkill, post, serveAgent, testCard, type ServedAgent, readJson} from './support.js'

let served: ServedAgent | undefined
afterEach(async () => {
  await served?.stop()
  served = undefined
})

const start = async (options: Parameters<typeof serveAgent>[0] = {}) => (served = await serveAgent(options))

function expectCors(response: Response) {
  for (const [name, value] of Object.entries(CORS_HEADERS)) expect(response.headers.get(name), name).toBe(value)
}

describe('the agent kit over HTTP (serve() on port 0)', () => {
  it('serves the PublicCard with CORS, a strong ETag and cache headers, and 304 on If-None-Match', async () => {
    const {url, agent} = await start()
    const response = await fetch(url + '/.well-known/agent.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    expectCors(response)
    expect(await readJson(response)).toEqual(agent.card)

    const again = await fetch(url + '/.well-known/agent.json', {headers: {'if-none-match': `"other", W/${etag}`}})
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe('')
    expectCors(again)
    expect((await fetch(url + '/.well-known/agent.json', {headers: {'if-none-match': '"stale"'}})).status).toBe(200)
  })

  it('serves the A2A card with its own ETag', async () => {
    const {url, agent} = await start()
    const response = await fetch(url + '/.well-known/agent-card.json')
    expect(response.status).toBe(200)
    expectCors(response)
    expect(await readJson(response)).toEqual(agent.a2aCard)
    const etag = response.headers.get('etag')!
    expect((await fetch(url + '/.well-known/agent-card.json', {headers: {'if-none-match': etag}})).status).toBe(304)
  })

  it('answers /health from the ready hook: 200 ok, 503 when not ready or when the hook throws', async () => {
    let state: 'up' | 'down' | 'throws' = 'up'
    const capture = captureLogger()
    const {url} = await start({
      agentId: 'kit-a1',
      logger: capture.logger,
      ready: async () => {
        if (state === 'throws') throw new Error('upstream socket closed')
        return state === 'up'
      },
    })
    let response = await fetch(url + '/health')
    expect(response.status).toBe(200)
    expect(await readJson(response)).toEqual({ok: true, agent_id: 'kit-a1', upstream_ready: true})
    state = 'down'
    response = await fetch(url + '/health')
    expect(response.status).toBe(503)
    expect(await readJson(response)).toEqual({ok: false, agent_id: 'kit-a1', upstream_ready: false})
    state = 'throws'
    response = await fetch(url + '/health')
    expect(response.status).toBe(503)
    expectCors(response)
    expect(await readJson(response)).toEqual({ok: false, agent_id: 'kit-a1', upstream_ready: false})
    expect(capture.lines.some((line) => line.message === 'readiness hook failed')).toBe(true)
  })

  it('answers /health without a hook as {ok: true, agent_id}', async () => {
    const {url} = await start()
    expect(await readJson(await fetch(url + '/health'))).toEqual({ok: true, agent_id: 'kit-test-agent'})
  })

  it('answers / with the banner', async () => {
    const {url} = await start()
    const response = await fetch(url + '/')
    expect(response.status).toBe(200)
    expect(await readJson(response)).toEqual({
      service: 'mesh-agent',
      role: 'agent',
      name: 'Kit Test Agent',
      version: '1.2.3',
      endpoints: ['GET /.well-known/agent.json', 'GET /.well-known/agent-card.json', 'GET /health', 'GET /v1/whoami', 'POST /', 'POST /tasks/send', 'GET /tasks/<id>', 'POST /mcp', 'POST /v1/echo'],
    })
  })

  it('answers OPTIONS on any path with 204 and the CORS headers', async () => {
    const {url} = await start()
    for (const path of ['/v1/echo', '/nowhere', '/.well-known/agent.json']) {
      const response = await fetch(url + path, {method: 'OPTIONS', headers: {origin: 'https://elsewhere.example', 'access-control-request-method': 'POST'}})
      expect(response.status).toBe(204)
      expectCors(response)
    }
  })

  it('puts the CORS headers on errors and on the host\'s own 404 and 405', async () => {
    const {url} = await start()
    const responses = [
      await fetch(url + '/nowhere'),
      await post(url, '/v1/nope', '{}'),
      await post(url, '/v1/echo', '{not json'),
      await fetch(url + '/v1/echo'),
      await fetch(url + '/health', {method: 'POST'}),
      await fetch(url + '/v1/whoami'),
    ]
    expect(responses.map((response) => response.status)).toEqual([404, 404, 400, 405, 405, 401])
    for (const response of responses) {
      expectCors(response)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    }
    expect(await readJson(responses[0])).toMatchObject({error: {code: 'not_found'}})
    expect(responses[3].headers.get('allow')).toBe('POST, OPTIONS')
  })

  it('calls a skill: 200 with the handler\'s JSON; an empty body is {}', async () => {
    const seen: unknown[] = []
    const {url} = await start({
      card: testCard({skills: [echoSkill, {...echoSkill, id: 'count', inputSchema: undefined}]}),
      skills: {
        echo: echoHandler,
        count(input, ctx) {
          seen.push({input, skill: ctx.skill, caller: ctx.caller, payment: ctx.payment, credential: ctx.credential})
          return {n: 1}
        },
      },
    })
    const response = await post(url, '/v1/echo', JSON.stringify({text: 'hello'}))
    expect(response.status).toBe(200)
    expectCors(response)
    expect(await readJson(response)).toEqual({text: 'hello'})
    const empty = await fetch(url + '/v1/count', {method: 'POST'})
    expect(empty.status).toBe(200)
    expect(seen).toEqual([{input: {}, skill: 'count', caller: {pubkey: null, ip: '127.0.0.1', audienceBound: false}, payment: null, credential: null}])
  })

  it('answers 404 unknown_skill, 400 invalid_json and 400 invalid_input naming the field', async () => {
    const {url} = await start()
    const unknown = await post(url, '/v1/translate', '{}')
    expect(unknown.status).toBe(404)
    expect((await readJson(unknown)).error.code).toBe('unknown_skill')
    const notJson = await post(url, '/v1/echo', '{"text": ')
    expect(notJson.status).toBe(400)
    expect((await readJson(notJson)).error.code).toBe('invalid_json')
    const missing = await post(url, '/v1/echo', '{}')
    expect(missing.status).toBe(400)
    expect((await readJson(missing)).error).toMatchObject({code: 'invalid_input', field: 'text'})
    const tooLong = await post(url, '/v1/echo', JSON.stringify({text: 'x'.repeat(201)}))
    expect((await readJson(tooLong)).error).toMatchObject({code: 'invalid_input', field: 'text'})
  })

  it('names nested fields in a JSON path', async () => {
    const nested = {...echoSkill, inputSchema: {type: 'object', properties: {items: {type: 'array', items: {type: 'object', required: ['id'], properties: {id: {type: 'integer'}}}}}}}
    const {url} = await start({card: testCard({skills: [nested]})})
    const wrongType = await post(url, '/v1/echo', JSON.stringify({items: [{id: 1}, {id: 'two'}]}))
    expect((await readJson(wrongType)).error).toMatchObject({code: 'invalid_input', field: 'items[1].id'})
    const missing = await post(url, '/v1/echo', JSON.stringify({items: [{}]}))
    expect((await readJson(missing)).error).toMatchObject({code: 'invalid_input', field: 'items[0].id'})
  })

  it('caps the body at bodyLimit with 413', async () => {
    const {url} = await start({bodyLimit: 1024})
    const response = await post(url, '/v1/echo', JSON.stringify({text: 'x'.repeat(2000)}))
    expect(response.status).toBe(413)
    expectCors(response)
    expect((await readJson(response)).error.code).toBe('body_too_large')
  })

  it('answers a handler\'s MeshError with its status, and anything else with 500 skill_failed, logged', async () => {
    const capture = captureLogger()
    const {url} = await start({
      logger: capture.logger,
      card: testCard({skills: [{...echoSkill, inputSchema: undefined}]}),
      skills: {
        echo(input: {mode: string}) {
          if (input.mode === 'mesh') throw new MeshError('conflict', 'busy_now', 'The model is busy', {field: 'mode'})
          if (input.mode === 'crash') throw new Error('database exploded')
          if (input.mode === 'bigint') return {n: 1n}
          return {ok: true}
        },
      },
    })
    const mesh = await post(url, '/v1/echo', '{"mode": "mesh"}')
    expect(mesh.status).toBe(409)
    expect(await readJson(mesh)).toEqual({error: {code: 'busy_now', message: 'The model is busy', field: 'mode'}})
    const crash = await post(url, '/v1/echo', '{"mode": "crash"}')
    expect(crash.status).toBe(500)
    expectCors(crash)
    const body = await readJson(crash)
    expect(body.error.code).toBe('skill_failed')
    expect(JSON.stringify(body)).not.toContain('exploded')
    expect(capture.lines.find((line) => line.message === 'skill failed')?.fields.error).toContain('database exploded')
    const notJson = await post(url, '/v1/echo', '{"mode": "bigint"}')
    expect(notJson.status).toBe(500)
    expect((await readJson(notJson)).error.code).toBe('skill_failed')
  })

  it('hands the Bearer credential to the handler and never logs it', async () => {
    const secret = 'sk-live-DO-NOT-LOG-0123456789'
    const capture = captureLogger()
    const credentials: (string | null)[] = []
    const {url} = await start({
      logger: capture.logger,
      card: testCard({skills: [{...echoSkill, inputSchema: undefined}]}),
      skills: {
        echo(input: {fail?: boolean}, ctx) {
          credentials.push(ctx.credential)
          ctx.logger.info(`calling the provider with ${ctx.credential}`, {key: ctx.credential, nested: {note: `key=${ctx.credential}`}})
          if (input.fail) throw new Error(`provider refused key ${ctx.credential}`)
          return {ok: true}
        },
      },
    })
    const headers = {authorization: `Bearer ${secret}`}
    expect((await post(url, '/v1/echo', '{}', {headers})).status).toBe(200)
    expect((await post(url, '/v1/echo', '{"fail": true}', {headers})).status).toBe(500)
    expect((await post(url, '/v1/echo', '{}', {headers: {authorization: 'Basic abc'}})).status).toBe(200)
    expect(credentials).toEqual([secret, secret, null])
    expect(capture.lines.length).toBeGreaterThan(2)
    expect(JSON.stringify(capture.lines)).not.toContain(secret)
  })

  it('answers HEAD like GET on the card, without a body', async () => {
    const {url} = await start()
    const response = await fetch(url + '/.well-known/agent.json', {method: 'HEAD'})
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toMatch(/^"/)
    expect(await response.text()).toBe('')
  })

  it('aborts ctx.signal when the caller goes away', async () => {
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    let gone!: (reason: unknown) => void
    const abortedWith = new Promise((resolve) => (gone = resolve))
    const {url} = await start({
      skills: {
        echo: (_input, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              gone(ctx.signal.reason)
              resolve({late: true})
            })
            entered()
          }),
      },
    })
    const caller = new AbortController()
    const pending = fetch(url + '/v1/echo', {method: 'POST', body: '{"text": "wait"}', signal: caller.signal}).catch((error: unknown) => error)
    await inside
    caller.abort()
    await pending
    expect(String(await abortedWith)).toContain('went away')
  })

  it('aborts ctx.signal when the agent stops', async () => {
    let aborted: unknown
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    const {url, agent} = await start({
      skills: {
        echo: (_input, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = ctx.signal.reason
              resolve({stopped: true})
            })
            entered()
          }),
      },
    })
    const pending = post(url, '/v1/echo', '{"text": "wait"}')
    await inside
    await agent.close()
    expect(await readJson(await pending)).toEqual({stopped: true})
    expect(String(aborted)).toContain('stopping')
  })
})
