import {describe, expect, it} from 'vitest'
import {initialRoomState, MAX_ROOM_LINES, roomReducer, type RoomEvent, type RoomState} from '../../../src/tui/room/room-state.js'
import {deliveryMark, lineHeader, statusText} from '../../../src/tui/room/format.js'

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
