/**
 * A tiny, real agent for tests: serves a PublicCard at /.well-known/agent.json,
 * an optional /health and one `POST /v1/<id>` per skill, on 127.0.0.1 port 0.
 * Every request is recorded, so tests can assert what a prober did (and did not) send.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface SkillReply {
  status: number
  body?: unknown
  /** Delay before answering, for timeout tests. */
  delayMs?: number
}

export interface TestSkill {
  id: string
  name?: string
  description?: string
  examples?: string[]
  returns?: string[]
  probe?: boolean
  /** Answers a POST; receives the parsed body (undefined when not JSON). Default: 400 on `{}`, 200 `{ok: true}` otherwise. */
  reply?: (body: unknown) => SkillReply
  /** When false the route does not exist (404), as if the card lied. */
  served?: boolean
  [extra: string]: unknown
}

export interface TestAgentOptions {
  name?: string
  skills?: TestSkill[]
  pricing?: {unit: string; amount: number; currency: string; network?: string}
  availabilityNow?: boolean
  /** `'missing'` serves no /health route (404); otherwise the status and body to answer. */
  health?: 'missing' | SkillReply
  /** Replaces the whole card (invalid cards, wrong url); a status number serves that status instead. */
  card?: Record<string, unknown> | number | ((url: string) => Record<string, unknown>)
  /** Path prefix the agent lives under, e.g. "/agents/a1". */
  basePath?: string
}

export interface RecordedRequest {
  method: string
  path: string
  body: string
  headers: IncomingMessage['headers']
}

export interface TestAgent {
  /** Base URL (with basePath), no trailing slash. */
  url: string
  port: number
  requests: RecordedRequest[]
  /** Requests to one skill path, e.g. requestsTo('/v1/draw'). */
  requestsTo(path: string): RecordedRequest[]
  /** Changes the options for later requests. */
  update(options: Partial<TestAgentOptions>): void
  close(): Promise<void>
}

const defaultReply = (body: unknown): SkillReply =>
  body && typeof body === 'object' && Object.keys(body).length > 0 ? {status: 200, body: {ok: true}} : {status: 400, body: {error: {code: 'invalid_body', message: 'empty'}}}

/** The PublicCard the agent serves for `options` at `url`. */
export function testAgentCard(url: string, options: TestAgentOptions): Record<string, unknown> {
  return {
    name: options.name ?? 'Test agent',
    url,
    version: '1.0.0',
    description: 'An agent that exists for tests.',
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    protocols: ['http'],
    pricing: options.pricing ?? {unit: 'request', amount: 0, currency: 'free'},
    availability: {now: options.availabilityNow ?? true},
    skills: (options.skills ?? []).map(({reply: _reply, served: _served, ...skill}) => ({
      name: skill.id,
      description: `Skill ${skill.id}.`,
      examples: ['Do the thing.', '{"text": "hello"}'],
      ...skill,
    })),
  }
}

/** Starts a test agent on 127.0.0.1:0. */
export async function startTestAgent(initial: TestAgentOptions = {}): Promise<TestAgent> {
  let options = {...initial}
  const requests: RecordedRequest[] = []
  let url = ''
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) return void res.writeHead(status).end()
    res.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(body))
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const base = options.basePath ?? ''
      const path = (req.url ?? '/').split('?')[0]
      requests.push({method: req.method ?? 'GET', path, body, headers: req.headers})
      if (!path.startsWith(base)) return send(res, 404, {error: {code: 'not_found', message: 'no such path'}})
      const local = path.slice(base.length) || '/'
      if (req.method === 'GET' && local === '/.well-known/agent.json') {
        const card = options.card
        if (typeof card === 'number') return send(res, card, {error: {code: 'not_found', message: 'no card'}})
        return send(res, 200, typeof card === 'function' ? card(url) : card ?? testAgentCard(url, options))
      }
      if (req.method === 'GET' && local === '/health') {
        if (options.health === 'missing') return send(res, 404, {error: {code: 'not_found', message: 'no health'}})
        const reply = options.health ?? {status: 200, body: {ok: true, agent_id: 'test-agent'}}
        return send(res, reply.status, reply.body)
      }
      const skill = local.startsWith('/v1/') ? (options.skills ?? []).find((s) => `/v1/${s.id}` === local && s.served !== false) : undefined
      if (!skill) return send(res, 404, {error: {code: 'not_found', message: 'no such route'}})
      if (req.method !== 'POST') return send(res, 405, {error: {code: 'method_not_allowed', message: 'POST only'}})
      let parsed: unknown
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = undefined
      }
      const reply = (skill.reply ?? defaultReply)(parsed)
      if (reply.delayMs) setTimeout(() => send(res, reply.status, reply.body), reply.delayMs)
      else send(res, reply.status, reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  url = `http://127.0.0.1:${port}${initial.basePath ?? ''}`
  return {
    url,
    port,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === (options.basePath ?? '') + path),
    update(next) {
      options = {...options, ...next}
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
