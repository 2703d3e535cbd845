import {describe, expect, it} from 'vitest'
import {callJson} from '../../src/client/http-json.js'
import {printable} from '../../src/client/printable.js'
import {formatSearchLines, formatSearchTable} from '../../src/client/registry/search-format.js'
import type {SearchAnswer} from '../../src/client/registry/search-client.js'
import {MeshError} from '../../src/lib/errors.js'

const EVIL = '\u001b[31mEVIL\u001b]0;pwned\u0007\u202e'

const answerWith = (displayName: string, description: string): SearchAnswer =>
  ({
    results: [
      {agent_id: 'evil1', display_name: displayName, did: null, verified: false, endpoint: null, online: true, operational: null, card_match: null, live_check: null, score: 0.5, invoke: [], description, category: null, tags: []},
    ],
    count: 1,
    ignored_keys: [],
    took_ms: 1,
  }) as SearchAnswer

describe('printable', () => {
  it('removes what could drive a terminal, keeps the text', () => {
    const text = printable(`${EVIL}\tok\r\nline`)
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/)
    expect(text).toContain('EVIL')
    expect(text).toContain('ok')
  })
})

describe('search output of hostile cards', () => {
  it('keeps escape sequences out of the table and the tab-separated lines', () => {
    const answer = answerWith(EVIL, `desc \u001b[2J\ncleared`)
    const table = formatSearchTable(answer, {colour: false})
    expect(table).not.toContain('\u001b')
    expect(table).not.toContain('\u0007')
    const [line] = formatSearchLines(answer)
    expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f]/)
    expect(line.split('\t')).toHaveLength(7)
  })
})

describe('server error messages', () => {
  it('become one printable line of bounded length, with a sane code', async () => {
    const body = JSON.stringify({error: {code: 'bad\u001b[0mcode', message: `line one\n\u001b[2Jline two ${'x'.repeat(2000)}`}})
    const fetchImpl = (async () => new Response(body, {status: 400})) as unknown as typeof fetch
    let error: MeshError | undefined
    await callJson({method: 'GET', url: new URL('http://127.0.0.1:9/x'), timeoutMs: 1000, fetch: fetchImpl, service: 'registry'}).catch((e: MeshError) => (error = e))
    expect(error).toBeInstanceOf(MeshError)
    expect(error!.code).toBe('http_400')
    expect(error!.message).not.toMatch(/[\u0000-\u001f]/)
    expect(error!.message.startsWith('line one')).toBe(true)
    expect(error!.message.length).toBeLessThanOrEqual(500)
  })
})
