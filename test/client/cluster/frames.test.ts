import {describe, expect, it} from 'vitest'
import {errorCodeOf, messageTags, parseServerFrame, payloadText, type MessageFrame} from '../../../src/client/cluster/frames.js'

describe('parseServerFrame', () => {
  it('parses each known frame type and fills the optional fields', () => {
    const ready = parseServerFrame('{"type":"ready","you":"ada","online":["ada","bob"]}')
    expect(ready).toEqual({ok: true, known: true, frame: {type: 'ready', you: 'ada', you_did: null, public: false, owner: false, online: ['ada', 'bob']}})
    const presence = parseServerFrame('{"type":"presence","agent":"bob","status":"offline"}')
    expect(presence.ok && presence.frame).toEqual({type: 'presence', agent: 'bob', did: null, status: 'offline'})
    const message = parseServerFrame('{"type":"message","from":"bob","ts":"2025-01-01T00:00:00.000Z","payload":{"text":"hi"},"board":"news"}')
    expect(message.ok && message.frame).toEqual({type: 'message', from: 'bob', to: null, ts: '2025-01-01T00:00:00.000Z', payload: {text: 'hi'}, board: 'news'})
    expect(parseServerFrame('{"type":"ack","to":"bob","delivered":2}')).toMatchObject({ok: true, frame: {type: 'ack', to: 'bob', delivered: 2}})
    expect(parseServerFrame('{"type":"closed","reason":"deleted"}')).toMatchObject({ok: true, frame: {reason: 'deleted'}})
    expect(parseServerFrame('{"type":"error","detail":"rate_limited: slow down"}')).toMatchObject({ok: true, frame: {detail: 'rate_limited: slow down'}})
  })

  it('passes unknown types through as unknown, for newer relays', () => {
    expect(parseServerFrame('{"type":"post","id":"p1"}')).toEqual({ok: true, known: false, frame: {type: 'post', id: 'p1'}})
  })

  it('rejects malformed frames with a reason, never throwing', () => {
    expect(parseServerFrame('not json')).toMatchObject({ok: false, error: 'not JSON'})
    expect(parseServerFrame('[1,2]')).toMatchObject({ok: false, error: 'frame has no string "type"'})
    expect(parseServerFrame('{"type":"ready","you":"a","online":"bob"}')).toMatchObject({ok: false, error: 'ready.online must be an array of handles'})
    expect(parseServerFrame('{"type":"presence","agent":"a","status":"away"}')).toMatchObject({ok: false})
    expect(parseServerFrame('{"type":"message","from":"a","to":null}')).toMatchObject({ok: false, error: 'message.payload is missing'})
    expect(parseServerFrame('{"type":"ack","delivered":1.5}')).toMatchObject({ok: false})
    expect(parseServerFrame('{"type":"closed"}')).toMatchObject({ok: false})
    expect(parseServerFrame('{"type":"error","detail":3}')).toMatchObject({ok: false})
  })
})

describe('frame helpers', () => {
  it('takes the stable code from an error detail', () => {
    expect(errorCodeOf('frame_too_large: 70000 bytes')).toBe('frame_too_large')
    expect(errorCodeOf('unknown_peer')).toBe('unknown_peer')
    expect(errorCodeOf('Something odd')).toBe('error')
  })

  it('reads payload text by the receiver rule', () => {
    expect(payloadText('hello')).toBe('hello')
    expect(payloadText({text: 'look', media: [{mime: 'image/png', url: 'https://x/y.png'}]})).toBe('look [image/png https://x/y.png]')
    expect(payloadText({type: 'message', stream: 's', seq: 0, delta: 'par'})).toBe('par')
    expect(payloadText({kind: 'vote', value: 3})).toBe('{"kind":"vote","value":3}')
    expect(payloadText(42)).toBe('42')
    // The relay passes any nesting on; showing it must not throw.
    expect(payloadText(JSON.parse('{"x":' + '['.repeat(30_000) + ']'.repeat(30_000) + '}'))).toBe('[a payload nested too deeply to show]')
  })

  it('turns board and ref into tags whatever their shape', () => {
    const base: MessageFrame = {type: 'message', from: 'a', to: null, ts: 't', payload: 'x'}
    expect(messageTags({...base, board: 'news', ref: 'p_1'})).toEqual(['board:news', 'ref:p_1'])
    // Another relay may send structured tags; the view must still show them.
    expect(messageTags({...base, board: [{slug: 'a'}, {id: 'b'}]} as unknown as MessageFrame)).toEqual(['board:a', 'board:b'])
    expect(messageTags(base)).toEqual([])
  })
})
