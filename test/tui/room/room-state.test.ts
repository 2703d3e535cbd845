import {describe, expect, it} from 'vitest'
import {initialRoomState, MAX_ROOM_LINES, roomReducer, type RoomEvent, type RoomState} from '../../../src/tui/room/room-state.js'
import {deliveryMark, lineHeader, MAX_SHOWN_STREAM_CHARS, shownText, statusText, streamMark} from '../../../src/tui/room/format.js'
import type {AssembledStream} from '../../../src/client/cluster/streams.js'

const now = '2025-01-01T10:00:00.000Z'
const run = (events: RoomEvent[], state: RoomState = initialRoomState('c_1', 'ada')) => events.reduce(roomReducer, state)
const ready: RoomEvent = {type: 'frame', now, frame: {type: 'ready', you: 'ada', you_did: null, public: false, owner: false, online: ['ada', 'bob']}}

describe('roomReducer', () => {
  it('turns frames into lines: ready, presence, messages with tags, closed', () => {
    const state = run([
      ready,
      {type: 'frame', now, frame: {type: 'presence', agent: 'carl', did: null, status: 'online'}},
      {type: 'frame', now, frame: {type: 'message', from: 'bob', to: null, ts: now, payload: {text: 'see #news'}, board: 'news'}},
      {type: 'frame', now, frame: {type: 'message', from: 'bob', to: 'ada', ts: now, payload: 'psst'}},
      {type: 'frame', now, frame: {type: 'closed', reason: 'server_shutdown'}},
    ])
    expect(state.you).toBe('ada')
    expect(state.lines.map((line) => [line.kind, line.text])).toEqual([
      ['notice', 'joined c_1 as ada · 1 other online'],
      ['notice', 'carl joined'],
      ['message', 'see #news'],
      ['message', 'psst'],
      ['notice', 'relay closed the connection: server_shutdown'],
    ])
    expect(state.lines[2].tags).toEqual(['board:news'])
    expect(lineHeader(state.lines[3], state.you)).toBe('bob → you')
  })

  it('shows own sends at once and marks them from acks and refusals, in send order', () => {
    const state = run([
      ready,
      {type: 'sent', now, frame: {payload: 'hello'}},
      {type: 'sent', now, frame: {to: 'zed', payload: 'you there?'}},
      {type: 'sent', now, frame: {payload: 'x'.repeat(10)}},
      {type: 'frame', now, frame: {type: 'ack', to: null, delivered: 1}},
      {type: 'frame', now, frame: {type: 'ack', to: 'zed', delivered: 0}},
      {type: 'frame', now, frame: {type: 'error', detail: 'rate_limited: 10 messages per second'}},
    ])
    const mine = state.lines.filter((line) => line.kind === 'mine')
    expect(mine.map((line) => deliveryMark(line))).toEqual(['✓1', '✗ zed is not connected', '✗ rate_limited'])
    expect(lineHeader(mine[1], 'ada')).toBe('you → zed')
    expect(state.lines.at(-1)).toMatchObject({kind: 'error', text: 'relay: rate_limited: 10 messages per second'})
    expect(state.awaitingAck).toEqual([])
  })

  it('forgets pending acks when the socket drops, and caps the pane', () => {
    const dropped = run([ready, {type: 'sent', now, frame: {payload: 'lost?'}}, {type: 'status', status: {state: 'reconnecting', attempt: 1, retryInMs: 500}}])
    expect(dropped.awaitingAck).toEqual([])
    const many = run(Array.from({length: MAX_ROOM_LINES + 5}, (): RoomEvent => ({type: 'notice', text: 'n', now})))
    expect(many.lines).toHaveLength(MAX_ROOM_LINES)
    expect(many.lines[0].id).toBe(6)
  })
})

describe('roomReducer with streams', () => {
  const stream = (patch: Partial<AssembledStream>): AssembledStream => ({
    serial: 1,
    from: 'bob',
    from_did: null,
    to: null,
    stream: 's1',
    ts: now,
    text: '',
    chunks: 1,
    state: 'open',
    board: [],
    ref: [],
    ...patch,
  })

  it('keeps one line per peer stream, updated in place, with its tags', () => {
    const state = run([
      ready,
      {type: 'stream', stream: stream({text: 'Hel'})},
      {type: 'frame', now, frame: {type: 'message', from: 'carl', to: null, ts: now, payload: 'hi'}},
      {type: 'stream', stream: stream({serial: 2, from: 'carl', text: 'other'})},
      {type: 'stream', stream: stream({text: 'Hello #news', chunks: 2, state: 'done', board: ['news']})},
    ])
    expect(state.lines.map((line) => [line.from, line.text, line.stream?.state])).toEqual([
      [undefined, 'joined c_1 as ada · 1 other online', undefined],
      ['bob', 'Hello #news', 'done'],
      ['carl', 'hi', undefined],
      ['carl', 'other', 'open'],
    ])
    expect(state.lines[1].tags).toEqual(['board:news'])
    expect(streamMark(state.lines[1])).toBe('')
    expect(streamMark(state.lines[3])).toBe('streaming…')
    const cut = run([{type: 'stream', stream: stream({serial: 2, from: 'carl', text: 'other', state: 'incomplete', reason: 'idle', missing: 2})}], state)
    expect(streamMark(cut.lines[3])).toBe('incomplete: the sender went silent, 2 chunks missing')
  })

  it('settles an own streamed line on the ack of its last chunk; a refused chunk sticks', () => {
    const sent = run([ready, {type: 'sent', now, frame: {payload: 'long'}, chunks: 3}, {type: 'sent', now, frame: {payload: 'next'}}])
    const mine = (state: RoomState) => state.lines.filter((line) => line.kind === 'mine')
    const ack: RoomEvent = {type: 'frame', now, frame: {type: 'ack', to: null, delivered: 2}}
    const twoAcks = run([ack, ack], sent)
    expect(mine(twoAcks).map((line) => [deliveryMark(line), streamMark(line)])).toEqual([
      ['…', 'sending 3 chunks…'],
      ['…', ''],
    ])
    const settled = run([ack, ack], twoAcks)
    expect(mine(settled).map((line) => [deliveryMark(line), streamMark(line)])).toEqual([
      ['✓2', ''],
      ['✓2', ''],
    ])
    const refused = run([{type: 'frame', now, frame: {type: 'error', detail: 'rate_limited: slow down'}}, ack, ack], sent)
    expect(deliveryMark(mine(refused)[0])).toBe('✗ rate_limited')
    const dropped = run([{type: 'status', status: {state: 'reconnecting', attempt: 1, retryInMs: 500}}], sent)
    expect(streamMark(mine(dropped)[0])).toBe('incomplete: connection lost')
  })

  it('shows the newest characters of a long stream', () => {
    const long = 'a'.repeat(MAX_SHOWN_STREAM_CHARS) + '😀'.repeat(10)
    const [line] = run([{type: 'stream', stream: stream({text: long})}]).lines
    expect(shownText(line)).toBe(`[${long.length - MAX_SHOWN_STREAM_CHARS} earlier characters] ` + long.slice(-MAX_SHOWN_STREAM_CHARS))
    // A cut that would split a surrogate pair moves past it.
    const odd = 'a' + '😀'.repeat(MAX_SHOWN_STREAM_CHARS) + 'b'
    const [oddLine] = run([{type: 'stream', stream: stream({text: odd})}]).lines
    const cutAt = odd.length - MAX_SHOWN_STREAM_CHARS
    expect(odd.charCodeAt(cutAt)).toBeGreaterThanOrEqual(0xdc00)
    expect(shownText(oddLine)).toBe(`[${cutAt + 1} earlier characters] ` + odd.slice(cutAt + 1))
  })
})

describe('statusText', () => {
  it('says what the connection is doing, with a countdown while reconnecting', () => {
    expect(statusText({state: 'idle', attempt: 0}, 0, 0)).toBe('connecting…')
    expect(statusText({state: 'connected', attempt: 0}, 3, 0)).toBe('connected · 3 online')
    expect(statusText({state: 'reconnecting', attempt: 2, retryAt: 5_000, lastError: 'connection closed (code 1006)'}, 0, 2_100)).toBe(
      'reconnecting in 3s (attempt 2) · last error: connection closed (code 1006)',
    )
    expect(statusText({state: 'failed', attempt: 0, lastError: 'No such cluster (404)'}, 0, 0)).toBe('failed: No such cluster (404)')
  })
})
