import {describe, expect, it} from 'vitest'
import {parsePipeLine, parseRoomLine} from '../../../src/client/cluster/input.js'

describe('parseRoomLine', () => {
  it('broadcasts plain text and sends /msg directly', () => {
    expect(parseRoomLine('hello all')).toEqual({kind: 'send', frame: {payload: 'hello all'}})
    expect(parseRoomLine('/msg ada  see you at 5')).toEqual({kind: 'send', frame: {to: 'ada', payload: 'see you at 5'}})
    expect(parseRoomLine('//etc is a path')).toEqual({kind: 'send', frame: {payload: '/etc is a path'}})
  })

  it('knows /quit and /help, and refuses unknown or incomplete commands', () => {
    expect(parseRoomLine('/quit')).toEqual({kind: 'quit'})
    expect(parseRoomLine('/help')).toEqual({kind: 'help'})
    expect(parseRoomLine('/msg ada')).toEqual({kind: 'invalid', message: 'usage: /msg <handle> <text>'})
    expect(parseRoomLine('/dance')).toMatchObject({kind: 'invalid'})
    expect(parseRoomLine('   ')).toEqual({kind: 'empty'})
  })
})

describe('parsePipeLine', () => {
  it('takes JSON client frames as they are', () => {
    expect(parsePipeLine('{"payload":{"text":"hi"}}')).toEqual({kind: 'send', frame: {payload: {text: 'hi'}}, text: '{"payload":{"text":"hi"}}'})
    expect(parsePipeLine('{"to":"ada","payload":"psst"}')).toEqual({kind: 'send', frame: {to: 'ada', payload: 'psst'}, text: '{"to":"ada","payload":"psst"}'})
    // The line itself is what goes out (trimmed), so numbers keep their digits.
    expect(parsePipeLine(' {"to":null,"payload":12345678901234567890} ')).toMatchObject({kind: 'send', text: '{"to":null,"payload":12345678901234567890}'})
  })

  it('refuses JSON-looking lines that are not client frames', () => {
    expect(parsePipeLine('{"payload": ')).toMatchObject({kind: 'invalid'})
    expect(parsePipeLine('{"text":"hi"}')).toMatchObject({kind: 'invalid', message: expect.stringContaining('payload')})
    expect(parsePipeLine('{"to":5,"payload":"x"}')).toMatchObject({kind: 'invalid'})
  })

  it('sends any other line as text, /msg directly; skips blank lines', () => {
    expect(parsePipeLine('hello\r')).toEqual({kind: 'send', frame: {payload: 'hello'}})
    expect(parsePipeLine('/etc/hosts is odd')).toEqual({kind: 'send', frame: {payload: '/etc/hosts is odd'}})
    expect(parsePipeLine('/msg bob hi there')).toEqual({kind: 'send', frame: {to: 'bob', payload: 'hi there'}})
    expect(parsePipeLine('/quit')).toEqual({kind: 'quit'})
    expect(parsePipeLine('')).toEqual({kind: 'empty'})
  })
})
