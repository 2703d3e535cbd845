import {describe, expect, it} from 'vitest'
import {callJson, resolveServerUrl} from '../../src/client/http-json.js'
import {caught} from '../support/caught.js'

const answer = (status: number, text: string, headers: Record<string, string> = {}) =>
  (async () => new Response(text, {status, headers})) as unknown as typeof fetch

const call = (fetchImpl: typeof fetch) =>
  callJson({method: 'GET', url: new URL('http://127.0.0.1:9/x'), timeoutMs: 1000, fetch: fetchImpl, service: 'registry'})

describe('callJson', () => {
  it('returns the parsed body of a success', async () => {
    expect(await call(answer(200, '{"ok":true}'))).toEqual({ok: true})
  })
  it("keeps the server's code, message, field, status and Retry-After", async () => {
    const error = await caught(call(answer(429, '{"error":{"code":"rate_limited","message":"slow","field":"x"}}', {'retry-after': '7'})))
    expect([error.kind, error.code, error.message, error.field]).toEqual(['rate_limited', 'rate_limited', 'slow', 'x'])
    expect(error.details).toEqual({status: 429, retry_after: 7})
  })
  it('names the status when the error body is not mesh JSON', async () => {
    const error = await caught(call(answer(502, '<html>')))
    expect([error.kind, error.code]).toEqual(['unavailable', 'http_502'])
  })
  it('turns a refused connection into <service>_unreachable', async () => {
    const refuse = (async () => {
      throw new TypeError('fetch failed', {cause: new Error('ECONNREFUSED')})
    }) as unknown as typeof fetch
    const error = await caught(call(refuse))
    expect(error.code).toBe('registry_unreachable')
    expect(error.message).toContain('ECONNREFUSED')
  })
  it('refuses a success whose body is not JSON', async () => {
    expect((await caught(call(answer(200, 'nope')))).code).toBe('registry_bad_answer')
  })
})

describe('resolveServerUrl', () => {
  const options = {flagName: '--relay', env: 'MESH_RELAY', fallback: 'http://127.0.0.1:8080', websocket: true}
  it('prefers the flag, then the environment, then the default', () => {
    expect(resolveServerUrl({...options, flag: 'http://a:1/'}, {MESH_RELAY: 'http://b:2'})).toBe('http://a:1')
    expect(resolveServerUrl(options, {MESH_RELAY: 'ws://b:2'})).toBe('ws://b:2')
    expect(resolveServerUrl(options, {})).toBe('http://127.0.0.1:8080')
  })
  it('refuses a bad URL or scheme with a usage code', () => {
    expect(() => resolveServerUrl({...options, flag: 'nope'}, {})).toThrow(/--relay must be a URL/)
    expect(() => resolveServerUrl({...options, websocket: false, flag: 'ws://x'}, {})).toThrow(/http\(s\) URL/)
  })
})
