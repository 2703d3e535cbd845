import {describe, expect, it} from 'vitest'
import {messageFrame, parseClientFrame, payloadText} from '../../../src/cluster/ws/frames.js'

describe('parseClientFrame', () => {
  it('reads the three client frames of the spec', () => {
    expect(parseClientFrame('hello')).toEqual({ok: true, send: {to: null, payload: 'hello'}})
    expect(parseClientFrame('"quoted"')).toEqual({ok: true, send: {to: null, payload: 'quoted'}})
    expect(parseClientFrame('{"payload":{"text":"t"}}')).toEqual({ok: true, send: {to: null, payload: {text: 't'}}})
    expect(parseClientFrame('{"to":"bob","payload":1}')).toEqual({ok: true, send: {to: 'bob', payload: 1}})
    expect(parseClientFrame('{"to":null,"payload":null}')).toEqual({ok: true, send: {to: null, payload: null}})
  })
  it('broadcasts any text that is not a JSON object as itself', () => {
    for (const text of ['42', '[1,2]', 'true', '{not json', '']) expect(parseClientFrame(text)).toEqual({ok: true, send: {to: null, payload: text}})
  })
  it('refuses objects without payload or with a bad recipient', () => {
    expect(parseClientFrame('{"text":"x"}').ok).toBe(false)
    expect(parseClientFrame('{"to":3,"payload":"x"}').ok).toBe(false)
    expect(parseClientFrame('{"to":"","payload":"x"}').ok).toBe(false)
  })
})

describe('messageFrame', () => {
  it('carries from_did, board and ref only when set', () => {
    const plain = JSON.parse(messageFrame({from: 'a', fromDid: null, to: null, ts: 't', payload: 'p'}).toString())
    expect(plain).toEqual({type: 'message', from: 'a', to: null, ts: 't', payload: 'p'})
    const full = JSON.parse(messageFrame({from: 'a', fromDid: 'did:key:z', to: 'b', ts: 't', payload: 'p', tags: {board: 'news', ref: 'p1'}}).toString())
    expect(full).toEqual({type: 'message', from: 'a', from_did: 'did:key:z', to: 'b', ts: 't', payload: 'p', board: 'news', ref: 'p1'})
  })
  it('finds the text of string and object payloads', () => {
    expect(payloadText('x')).toBe('x')
    expect(payloadText({text: 'y', media: []})).toBe('y')
    expect(payloadText({type: 'message', stream: 's', seq: 1, delta: 'd'})).toBeNull()
    expect(payloadText(['x'])).toBeNull()
  })
})
