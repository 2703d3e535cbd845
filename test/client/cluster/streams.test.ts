import {describe, expect, it} from 'vitest'
import type {MessageFrame} from '../../../src/client/cluster/frames.js'
import {assembledMessage, streamChunkOf, StreamReassembler, type StreamReassemblerOptions} from '../../../src/client/cluster/streams.js'

const ts = '2025-01-01T10:00:00.000Z'

/** A `message` frame carrying one stream chunk, as the relay delivers it. */
function chunk(seq: number, delta: string, options: {from?: string; stream?: string | number; done?: boolean; to?: string | null; board?: string} = {}): MessageFrame {
  const payload = {type: 'message', stream: options.stream ?? 's1', seq, delta, ...(options.done ? {done: true} : {})}
  return {type: 'message', from: options.from ?? 'bob', to: options.to ?? null, ts, payload, ...(options.board ? {board: options.board} : {})} as MessageFrame
}

function reassembler(options: StreamReassemblerOptions = {}) {
  const clock = {now: 0}
  return {clock, streams: new StreamReassembler({now: () => clock.now, ...options})}
}

describe('streamChunkOf', () => {
  it('reads the spec form and refuses payloads that are not chunks', () => {
    expect(streamChunkOf({type: 'message', stream: 's', seq: 0, delta: 'hi'})).toEqual({stream: 's', seq: 0, delta: 'hi', done: false})
    expect(streamChunkOf({type: 'message', stream: 7, seq: 3, done: true})).toEqual({stream: 7, seq: 3, delta: '', done: true})
    expect(streamChunkOf({stream: 's', seq: 1, delta: 'x'})).toMatchObject({seq: 1})
    for (const payload of [
      'text',
      {text: 'hi'},
      {type: 'other', stream: 's', seq: 0, delta: 'x'},
      {type: 'message', stream: '', seq: 0, delta: 'x'},
      {type: 'message', stream: 's', seq: -1, delta: 'x'},
      {type: 'message', stream: 's', seq: 1.5, delta: 'x'},
      {type: 'message', stream: 's', seq: 0},
      {type: 'message', stream: {id: 1}, seq: 0, delta: 'x'},
      [1, 2],
      null,
    ]) {
      expect(streamChunkOf(payload)).toBeUndefined()
    }
  })
})

describe('StreamReassembler', () => {
  it('grows one stream per (from, stream) and finishes it at done', () => {
    const {streams} = reassembler()
    expect(streams.push({type: 'message', from: 'bob', to: null, ts, payload: 'plain'} as MessageFrame)).toBeUndefined()
    const first = streams.push(chunk(0, 'Hel'))!
    expect(first).toMatchObject([{from: 'bob', stream: 's1', text: 'Hel', chunks: 1, state: 'open'}])
    expect(streams.push(chunk(1, 'lo, '))).toMatchObject([{text: 'Hello, ', state: 'open'}])
    const done = streams.push(chunk(2, 'world', {done: true}))!
    expect(done).toMatchObject([{text: 'Hello, world', chunks: 3, state: 'done', serial: first[0].serial}])
    expect(done[0].reason).toBeUndefined()
    expect(streams.openCount).toBe(0)
  })

  it('holds chunks that come early until the gap fills, and ignores repeats, also after done', () => {
    const {streams} = reassembler()
    expect(streams.push(chunk(2, 'c', {done: true}))).toMatchObject([{text: '', state: 'open'}])
    expect(streams.push(chunk(1, 'b'))).toMatchObject([{text: '', state: 'open'}])
    expect(streams.push(chunk(1, 'B'))).toEqual([])
    expect(streams.push(chunk(0, 'a'))).toMatchObject([{text: 'abc', chunks: 3, state: 'done'}])
    expect(streams.push(chunk(0, 'a'))).toEqual([])
    expect(streams.push(chunk(2, 'c', {done: true}))).toEqual([])
    expect(streams.openCount).toBe(0)
  })

  it('keeps senders, and streams of one sender, apart', () => {
    const {streams} = reassembler()
    streams.push(chunk(0, 'bob-1 '))
    streams.push(chunk(0, 'carl ', {from: 'carl'}))
    streams.push(chunk(0, 'bob-2 ', {stream: 's2'}))
    // A number id is not the string of the same digits.
    streams.push(chunk(0, 'bob-n ', {stream: 1}))
    expect(streams.openCount).toBe(4)
    expect(streams.push(chunk(1, 'end', {done: true}))).toMatchObject([{from: 'bob', stream: 's1', text: 'bob-1 end'}])
    expect(streams.push(chunk(1, 'end', {from: 'carl', done: true}))).toMatchObject([{from: 'carl', text: 'carl end'}])
    expect(streams.push(chunk(1, 'end', {stream: 's2', done: true}))).toMatchObject([{stream: 's2', text: 'bob-2 end'}])
    expect(streams.push(chunk(1, 'end', {stream: 1, done: true}))).toMatchObject([{stream: 1, text: 'bob-n end'}])
  })

  it('gives up a silent stream after the idle timeout with what arrived, gaps counted', () => {
    const {clock, streams} = reassembler({limits: {idleTimeoutMs: 1000}})
    streams.push(chunk(0, 'a'))
    streams.push(chunk(2, 'c'))
    streams.push(chunk(5, 'f', {stream: 'other'}))
    clock.now = 999
    expect(streams.expire()).toEqual([])
    clock.now = 1000
    const expired = streams.expire()
    expect(expired).toMatchObject([
      {stream: 's1', text: 'ac', state: 'incomplete', reason: 'idle', missing: 1},
      {stream: 'other', text: 'f', state: 'incomplete', reason: 'idle', missing: 5},
    ])
    expect(streams.openCount).toBe(0)
    // Late chunks of a stream given up are ignored while it is remembered, then a reused id starts afresh.
    expect(streams.push(chunk(1, 'b'))).toEqual([])
    clock.now = 2000
    streams.expire()
    expect(streams.push(chunk(0, 'new'))).toMatchObject([{text: 'new', state: 'open'}])
  })

  it('a chunk keeps its stream alive: only streams silent for the whole timeout are given up', () => {
    const {clock, streams} = reassembler({limits: {idleTimeoutMs: 1000}})
    streams.push(chunk(0, 'a'))
    streams.push(chunk(0, 'x', {stream: 'quiet'}))
    clock.now = 900
    streams.push(chunk(1, 'b'))
    clock.now = 1500
    expect(streams.expire()).toMatchObject([{stream: 'quiet', state: 'incomplete'}])
    expect(streams.openCount).toBe(1)
  })

  it('caps bytes per stream, held chunks per stream and open streams', () => {
    const {streams} = reassembler({limits: {maxStreamBytes: 10, maxHeldChunks: 2, maxOpenStreams: 2}})
    streams.push(chunk(0, 'ééé'))
    expect(streams.push(chunk(1, 'ééé'))).toMatchObject([{text: 'ééé', state: 'incomplete', reason: 'too_large'}])
    expect(streams.push(chunk(2, 'x'))).toEqual([])

    streams.push(chunk(1, 'b', {stream: 'gappy'}))
    streams.push(chunk(2, 'c', {stream: 'gappy'}))
    expect(streams.push(chunk(3, 'd', {stream: 'gappy'}))).toMatchObject([{text: 'bc', state: 'incomplete', reason: 'out_of_order', missing: 1}])

    streams.push(chunk(0, 'one', {stream: 'a'}))
    streams.push(chunk(0, 'two', {stream: 'b'}))
    streams.push(chunk(1, '!', {stream: 'a'}))
    // 'b' is now the least recently active: a third stream gives it up.
    expect(streams.push(chunk(0, 'three', {stream: 'c'}))).toMatchObject([
      {stream: 'b', text: 'two', state: 'incomplete', reason: 'too_many_streams'},
      {stream: 'c', text: 'three', state: 'open'},
    ])
    expect(streams.openCount).toBe(2)
  })

  it('closeAll gives up every open stream', () => {
    const {streams} = reassembler()
    streams.push(chunk(0, 'a'))
    streams.push(chunk(0, 'b', {from: 'carl'}))
    expect(streams.closeAll('disconnected')).toMatchObject([
      {from: 'bob', state: 'incomplete', reason: 'disconnected', missing: 0},
      {from: 'carl', state: 'incomplete', reason: 'disconnected'},
    ])
    expect(streams.openCount).toBe(0)
  })
})

describe('assembledMessage', () => {
  it('is a message event whose payload text is the whole stream, saying how it ended', () => {
    const {streams} = reassembler()
    streams.push(chunk(0, 'see #news ', {to: 'ada', board: 'news'}))
    const [done] = streams.push(chunk(1, 'now', {to: 'ada', done: true}))!
    expect(assembledMessage(done)).toEqual({
      type: 'message',
      from: 'bob',
      from_did: null,
      to: 'ada',
      ts,
      payload: {type: 'message', text: 'see #news now'},
      board: ['news'],
      stream: {id: 's1', chunks: 2, complete: true},
    })
    streams.push(chunk(1, 'tail', {stream: 's2'}))
    const [cut] = streams.closeAll('closed')
    expect(assembledMessage(cut)).toMatchObject({payload: {text: 'tail'}, stream: {id: 's2', chunks: 1, complete: false, reason: 'closed', missing: 1}})
    expect(assembledMessage(cut)).not.toHaveProperty('board')
  })
})
