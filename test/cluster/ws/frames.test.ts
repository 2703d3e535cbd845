import {describe, expect, it} from 'vitest'
import {messageFrame, parseClientFrame, payloadText} from '../../../src/cluster/ws/frames.js'

const send = (to: string | null, payload: unknown, payloadJson: string) => ({ok: true, send: {to, payload, payloadJson}})

describe('parseClientFrame', () => {
  it('reads the three client frames of the spec', () => {
    expect(parseClientFrame('hello')).toEqual(send(null, 'hello', '"hello"'))
    expect(parseClientFrame(' "quoted" ')).toEqual(send(null, 'quoted', '"quoted"'))
    expect(parseClientFrame('{"payload":{"text":"t"}}')).toEqual(send(null, {text: 't'}, '{"text":"t"}'))
    expect(parseClientFrame('{"to":"bob","payload":1}')).toEqual(send('bob', 1, '1'))
    expect(parseClientFrame('{"to":null,"payload":null}')).toEqual(send(null, null, 'null'))
  })
  it('broadcasts any text that is not a JSON object as itself', () => {
    for (const text of ['42', '[1,2]', 'true', 'null', '{not json', '']) expect(parseClientFrame(text)).toEqual(send(null, text, JSON.stringify(text)))
  })
  it('refuses objects without payload or with a recipient that is not a non-empty string', () => {
    expect(parseClientFrame('{"text":"x"}').ok).toBe(false)
    for (const to of ['3', '""', 'true', '["bob"]', '{"h":"bob"}']) expect(parseClientFrame(`{"to":${to},"payload":"x"}`).ok, to).toBe(false)
  })
  it('keeps the payload text exactly as sent, where a parse and stringify would change it', () => {
    const payload = '{ "big": 12345678901234567890, "huge": 1e400, "neg0": -0, "f": 1.50, "s": "\\u00e9\\/" }'
    const parsed = parseClientFrame(`{"payload": ${payload} , "to": "bob"}`)
    expect(parsed).toMatchObject({ok: true, send: {to: 'bob', payloadJson: payload}})
  })
  it('relays payloads nested deeper than JSON.stringify can go', () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000)
    const parsed = parseClientFrame(`{"payload":${deep}}`)
    expect(parsed.ok && parsed.send.payloadJson).toBe(deep)
    const frame = messageFrame({from: 'a', fromDid: null, to: null, ts: 't', payloadJson: deep}).toString()
    expect(frame.endsWith(`"payload":${deep}}`)).toBe(true)
  })
})

describe('messageFrame', () => {
  it('carries from_did, board and ref only when set, in the order of the spec table', () => {
    const plain = messageFrame({from: 'a', fromDid: null, to: null, ts: 't', payloadJson: '"p"'}).toString()
    expect(plain).toBe('{"type":"message","from":"a","to":null,"ts":"t","payload":"p"}')
    const full = messageFrame({from: 'a"\n\u2028', fromDid: 'did:key:z', to: 'b', ts: 't', payloadJson: '{"x" : 1}', tags: {board: 'news', ref: 'p1'}}).toString()
    expect(JSON.parse(full)).toEqual({type: 'message', from: 'a"\n\u2028', from_did: 'did:key:z', to: 'b', ts: 't', payload: {x: 1}, board: 'news', ref: 'p1'})
    expect(Object.keys(JSON.parse(full))).toEqual(['type', 'from', 'from_did', 'to', 'ts', 'payload', 'board', 'ref'])
  })
  it('finds the text of string and object payloads', () => {
    expect(payloadText('x')).toBe('x')
    expect(payloadText({text: 'y', media: []})).toBe('y')
    expect(payloadText({type: 'message', stream: 's', seq: 1, delta: 'd'})).toBeNull()
    expect(payloadText(['x'])).toBeNull()
  })
})
