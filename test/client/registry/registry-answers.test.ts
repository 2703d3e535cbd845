import {describe, expect, it} from 'vitest'
import {assertAgentId} from '../../../src/cli/agent-id.js'
import {listProblem, shapeProblem} from '../../../src/client/answer-shape.js'
import {callJson, resolveServerUrl} from '../../../src/client/http-json.js'
import {createRegistryClient} from '../../../src/client/registry/registry-client.js'
import {resolveRegistryUrl, searchRegistry} from '../../../src/client/registry/search-client.js'
import {MeshError} from '../../../src/lib/errors.js'
import {caught} from '../../support/caught.js'

const answering = (text: string, status = 200) => (async () => new Response(text, {status})) as unknown as typeof fetch

function thrown(work: () => unknown): MeshError {
  try {
    work()
  } catch (error) {
    return error as MeshError
  }
  throw new Error('expected a throw')
}

describe('answer shapes', () => {
  it('names the first missing or mistyped field', () => {
    expect(shapeProblem({a: 'x', b: 1}, {a: 'string', b: 'number'})).toBeNull()
    expect(shapeProblem({a: null}, {a: 'string?'})).toBeNull()
    expect(shapeProblem({}, {a: 'string'})).toBe('a is missing')
    expect(shapeProblem({a: 5}, {a: 'array'})).toBe('a is a number, not an array')
    expect(shapeProblem({a: 5}, {a: 'string?'})).toBe('a is a number, not a string or null')
    expect(shapeProblem(null, {})).toBe('the body is a JSON null, not an object')
    expect(shapeProblem([1], {})).toBe('the body is a JSON array, not an object')
    expect(shapeProblem(undefined, {})).toBe('the body is empty, not an object')
  })
  it('names the item of a list that is wrong', () => {
    expect(listProblem([{id: 1}, {id: 'x'}], {id: 'number'}, 'messages')).toBe('messages[1].id is a string, not a number')
    expect(listProblem([{id: 1}, 7], {id: 'number'}, 'messages')).toBe('messages[1] is a JSON number, not an object')
  })
})

describe('registry client on a server that is not a mesh registry', () => {
  const client = (text: string, status?: number) => createRegistryClient({registry: 'http://127.0.0.1:9', fetch: answering(text, status)})

  it.each([
    ['null', 'the body is a JSON null'],
    ['[1,2]', 'the body is a JSON array'],
    ['{"hello":1}', 'agent_id is missing'],
    ['{"agent_id":"alpha","display_name":"A","owner_class":"x","capabilities":"translate","online":true,"handle":"h"}', 'capabilities is a string, not an array'],
  ])('refuses %s as registry_bad_answer', async (body, problem) => {
    const error = await caught(client(body).getAgent('alpha'))
    expect(error).toBeInstanceOf(MeshError)
    expect(error.code).toBe('registry_bad_answer')
    expect(error.message).toContain(problem)
    expect(error.message).toContain('http://127.0.0.1:9')
  })
  it('checks every route the CLI reads: token, identity, register', async () => {
    expect((await caught(client('{}').token('alpha', 'key'))).message).toContain('token is missing')
    expect((await caught(client('{"agent_id":"alpha"}').identity('alpha'))).message).toContain('handle is missing')
    expect((await caught(client('{"agent_id":"alpha"}').register({agent_id: 'alpha'}))).message).toContain('api_key is missing')
  })
  it('keeps a registry error as it is, whatever the shape rules', async () => {
    const error = await caught(client('{"error":{"code":"agent_not_found","message":"No agent"}}', 404).getAgent('ghost'))
    expect([error.code, error.message]).toEqual(['agent_not_found', 'No agent'])
  })
  it('says "no answer within" on a timeout', async () => {
    const hang = ((_url: URL, init: RequestInit) =>
      new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch
    const error = await caught(createRegistryClient({registry: 'http://127.0.0.1:9', fetch: hang, timeoutMs: 50}).getAgent('alpha'))
    expect(error.code).toBe('registry_unreachable')
    expect(error.message).toContain('no answer within 0.05 s')
  })
  it('explains a port fetch refuses to use', async () => {
    const error = await caught(callJson({method: 'GET', url: new URL('http://127.0.0.1:1/x'), timeoutMs: 1000, service: 'registry'}))
    expect(error.code).toBe('registry_unreachable')
    expect(error.message).toContain('blocked port')
  })
})

describe('search client on a wrong answer', () => {
  const search = (text: string) => searchRegistry({prompt: 'x'}, {registry: 'http://127.0.0.1:9', fetch: answering(text)})
  it.each([
    ['{"results":[1]}', 'results[0] is a JSON number'],
    ['{"results":[{"agent_id":"a","display_name":"A"}]}', 'results[0].score is missing'],
    ['{"results":[{"agent_id":"a","display_name":"A","score":1,"operational":null,"card_match":null,"endpoint":null,"invoke":[{"skill":"s"}],"description":null}]}', 'results[0].invoke[0].url is missing'],
    ['null', 'the body is a JSON null'],
  ])('refuses %s', async (body, problem) => {
    const error = await caught(search(body))
    expect(error.code).toBe('registry_bad_answer')
    expect(error.message).toContain(problem)
  })
})

describe('registry URL and agent id checks', () => {
  it('treats an empty or blank MESH_REGISTRY (or flag) as unset', () => {
    expect(resolveRegistryUrl(undefined, {MESH_REGISTRY: ''})).toBe('http://127.0.0.1:8080')
    expect(resolveRegistryUrl('  ', {MESH_REGISTRY: 'http://r:1'})).toBe('http://r:1')
  })
  it('never echoes the password of a refused URL', () => {
    expect(() => resolveServerUrl({flag: 'ftp://user:hunter2@host', flagName: '--registry', env: 'X', fallback: 'http://a'}, {})).toThrow(/ftp:\/\/\*\*\*@host/)
    expect(thrown(() => resolveRegistryUrl('ftp://user:hunter2@host', {})).message).not.toContain('hunter2')
  })
  it('refuses a malformed agent id as a usage error naming the flag', () => {
    expect(assertAgentId('alpha-1')).toBe('alpha-1')
    expect(() => assertAgentId('', 'agent_id')).toThrow(/agent_id must be 3 to 64/)
    expect(() => assertAgentId('../v1', '--agent')).toThrow(/--agent must be/)
    expect(thrown(() => assertAgentId('a b')).code).toBe('usage_agent_id')
  })
})

describe('answer size', () => {
  it('refuses a body longer than the cap instead of reading it all', async () => {
    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024
        controller.enqueue(new Uint8Array(1024).fill(32))
      },
    })
    const fetchImpl = (async () => new Response(endless, {status: 200})) as unknown as typeof fetch
    const error = await caught(callJson({method: 'GET', url: new URL('http://127.0.0.1:9/x'), timeoutMs: 5000, fetch: fetchImpl, service: 'registry', maxBytes: 10_000}))
    expect(error.code).toBe('registry_bad_answer')
    expect(error.message).toContain('more than 10000 bytes')
    expect(sent).toBeLessThan(100_000)
  })
})
