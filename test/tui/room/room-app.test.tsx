import {EventEmitter} from 'node:events'
import {render} from 'ink-testing-library'
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {ClusterConnectionEvents} from '../../../src/client/cluster/connection.js'
import type {ClientFrame} from '../../../src/client/cluster/frames.js'
import {MAX_FRAME_BYTES} from '../../../src/client/cluster/constants.js'
import {Roster} from '../../../src/client/cluster/roster.js'
import {StreamReassembler} from '../../../src/client/cluster/streams.js'
import {notFound} from '../../../src/lib/errors.js'
import {MAX_SHOWN_STREAM_CHARS} from '../../../src/tui/room/format.js'
import {MessagePane} from '../../../src/tui/room/message-pane.js'
import {RoomApp, type RoomEnd, type RoomSource} from '../../../src/tui/room/room-app.js'
import {RosterPane} from '../../../src/tui/room/roster-pane.js'

/** A connection stand-in: the same events, sends recorded. */
class FakeSource extends EventEmitter<ClusterConnectionEvents> implements RoomSource {
  readonly sent: ClientFrame[] = []
  send(frame: ClientFrame) {
    this.sent.push(frame)
  }
}

/** A frame and the text a relay would send for it. */
const withRaw = <F,>(frame: F): [F, string] => [frame, JSON.stringify(frame)]

const T0 = Date.parse('2025-01-01T10:00:00.000Z')
const ts = new Date(T0).toISOString()

function mountRoom(extra: {streams?: StreamReassembler; streamSweepMs?: number; chunkIntervalMs?: number} = {}) {
  const source = new FakeSource()
  const ends: RoomEnd[] = []
  const view = render(<RoomApp source={source} clusterId="c_room" agent="ada" onExit={(end) => ends.push(end)} now={() => T0} {...extra} />)
  const roster = new Roster()
  const join = (online: string[]) => {
    const frame = {type: 'ready' as const, you: 'ada', you_did: null, public: false, owner: false, online}
    roster.applyReady(frame)
    source.emit('frame', frame, JSON.stringify(frame))
    source.emit('status', {state: 'connected', attempt: 0})
    source.emit('roster', roster.list())
  }
  const frame = () => view.lastFrame() ?? ''
  const typeKeys = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      view.stdin.write(chunk)
      // Each key is handled by a React update; let it land before the next one.
      await vi.waitFor(() => expect(view.stdin.data).toBe(null), {interval: 5})
    }
  }
  return {source, ends, view, join, frame, typeKeys, roster}
}

afterEach(() => vi.restoreAllMocks())

describe('MessagePane', () => {
  it('shows time, sender, text, direct marks and hashtag tags', () => {
    const {lastFrame} = render(
      <MessagePane
        you="ada"
        height={5}
        scrollBack={0}
        lines={[
          {id: 1, kind: 'message', ts, from: 'bob', to: null, text: 'morning all #news', tags: ['board:news']},
          {id: 2, kind: 'message', ts, from: 'bob', to: 'ada', text: 'psst', tags: []},
          {id: 3, kind: 'mine', ts, from: 'ada', to: 'bob', text: 'hi back', tags: [], delivered: 1},
        ]}
      />,
    )
    const text = lastFrame() ?? ''
    expect(text).toMatch(/\d\d:\d\d:\d\d bob morning all #news #board:news/)
    expect(text).toContain('bob → you [direct] psst')
    expect(text).toContain('you → bob [direct] hi back ✓1')
  })

  it('scrolls back by lines', () => {
    const lines = Array.from({length: 10}, (_, i) => ({id: i + 1, kind: 'notice' as const, ts, text: `line ${i + 1}`, tags: []}))
    const {lastFrame} = render(<MessagePane lines={lines} height={3} scrollBack={2} />)
    expect(lastFrame()).toContain('line 6')
    expect(lastFrame()).toContain('line 8')
    expect(lastFrame()).not.toContain('line 9')
    expect(lastFrame()).not.toContain('line 5')
  })
})

describe('RosterPane', () => {
  it('lists you first, online and offline members, duplicate sockets', () => {
    const {lastFrame} = render(
      <RosterPane
        width={24}
        height={6}
        roster={[
          {agent: 'ada', did: null, status: 'online', sockets: 1, you: true},
          {agent: 'bob', did: null, status: 'online', sockets: 2, you: false},
          {agent: 'carl', did: null, status: 'offline', sockets: 0, you: false},
        ]}
      />,
    )
    const text = lastFrame() ?? ''
    expect(text).toContain('online 2')
    expect(text).toContain('● ada (you)')
    expect(text).toContain('● bob ×2')
    expect(text).toContain('○ carl')
  })
})

describe('RoomApp', () => {
  it('renders the roster, the status and incoming messages', async () => {
    const room = mountRoom()
    expect(room.frame()).toContain('connecting…')
    room.join(['ada', 'bob'])
    room.source.emit('frame', ...withRaw({type: 'message', from: 'bob', to: null, ts, payload: 'hello ada'}))
    await vi.waitFor(() => expect(room.frame()).toContain('bob hello ada'))
    expect(room.frame()).toContain('connected · 2 online')
    expect(room.frame()).toContain('● bob')
    expect(room.frame()).toContain('joined c_room as ada · 1 other online')
  })

  it('shows what peers chose with its control characters defused (no escape sequence reaches the terminal)', async () => {
    const room = mountRoom()
    const evil = 'm\u001b[2Jallory\u202e'
    room.join(['ada', evil])
    room.source.emit('frame', ...withRaw({type: 'message', from: evil, to: null, ts, payload: 'hi\u001b]0;pwned\u0007\nthere\u009b31m', board: 'x\u001b[1A'}))
    await vi.waitFor(() => expect(room.frame()).toContain('hi\ufffd]0;pwned\ufffd ↵ there\ufffd31m'))
    const frame = room.frame()
    for (const sequence of ['\u001b[2J', '\u001b]0;', '\u0007', '\u009b', '\u202e', '\u001b[1A']) expect(frame).not.toContain(sequence)
    expect(frame).toContain('m\ufffd[2Jallory\ufffd')
  })

  it('sends a typed line as a broadcast and /msg as a direct message', async () => {
    const room = mountRoom()
    room.join(['ada', 'bob'])
    await vi.waitFor(() => expect(room.frame()).toContain('connected'))
    await room.typeKeys('hello all', '\r', '/msg bob just you', '\r')
    await vi.waitFor(() => expect(room.source.sent).toEqual([{payload: 'hello all'}, {to: 'bob', payload: 'just you'}]))
    room.source.emit('frame', ...withRaw({type: 'ack', to: null, delivered: 1}))
    await vi.waitFor(() => expect(room.frame()).toContain('you → bob [direct] just you …'))
    expect(room.frame()).toContain('you hello all ✓1')
  })

  it('explains a bad command and leaves on /quit', async () => {
    const room = mountRoom()
    room.join(['ada'])
    await room.typeKeys('/msg bob', '\r')
    await vi.waitFor(() => expect(room.frame()).toContain('usage: /msg <handle> <text>'))
    expect(room.source.sent).toEqual([])
    await room.typeKeys('/quit', '\r')
    await vi.waitFor(() => expect(room.ends).toEqual([{reason: 'quit'}]))
  })

  it('counts down while reconnecting, and ends when the cluster is gone or the relay refuses', async () => {
    const room = mountRoom()
    room.join(['ada'])
    room.source.emit('status', {state: 'reconnecting', attempt: 2, retryInMs: 4000, retryAt: T0 + 4000, lastError: 'connection closed (code 1006)'})
    await vi.waitFor(() => expect(room.frame()).toContain('reconnecting in 4s (attempt 2) · last error: connection closed (code 1006)'))
    room.source.emit('frame', ...withRaw({type: 'closed', reason: 'deleted'}))
    room.source.emit('gone', {reason: 'deleted'})
    await vi.waitFor(() => expect(room.frame()).toContain('cluster c_room was deleted'))
    expect(room.ends).toEqual([{reason: 'gone'}])

    const refused = mountRoom()
    refused.source.emit('fatal', notFound('cluster_not_found', 'No such cluster (404)'))
    await vi.waitFor(() => expect(refused.ends).toMatchObject([{reason: 'fatal', error: {code: 'cluster_not_found'}}]))
  })
})

describe('RoomApp streams', () => {
  /** A `message` frame carrying one chunk of bob's stream. */
  const chunk = (seq: number, delta: string, done = false, stream = 's1') =>
    withRaw({type: 'message' as const, from: 'bob', to: null, ts, payload: {type: 'message', stream, seq, delta, ...(done ? {done: true} : {})}})
  const count = (text: string, part: string) => text.split(part).length - 1
  /** The pane's text with wrapping and the roster's border taken out. */
  const flat = (text: string) => text.replace(/[│\s]+/g, ' ')

  it('shows a stream as one message growing in place, marked until done', async () => {
    const room = mountRoom()
    room.join(['ada', 'bob'])
    room.source.emit('frame', ...withRaw({type: 'message', from: 'bob', to: null, ts, payload: 'before'}))
    room.source.emit('frame', ...chunk(0, 'Once upon'))
    await vi.waitFor(() => expect(room.frame()).toContain('bob Once upon [streaming…]'))
    // Out of order: held until seq 1 arrives.
    room.source.emit('frame', ...chunk(2, ' time'))
    room.source.emit('frame', ...withRaw({type: 'message', from: 'bob', to: null, ts, payload: 'meanwhile'}))
    room.source.emit('frame', ...chunk(1, ' a'))
    await vi.waitFor(() => expect(room.frame()).toContain('bob Once upon a time [streaming…]'))
    room.source.emit('frame', ...chunk(3, '.', true))
    await vi.waitFor(() => expect(room.frame()).toContain('bob Once upon a time.'))
    const frame = room.frame()
    expect(frame).not.toContain('streaming')
    // One line for the stream, where it began: before the message that came while it grew.
    expect(count(frame, 'Once upon')).toBe(1)
    expect(frame.indexOf('before')).toBeLessThan(frame.indexOf('Once upon'))
    expect(frame.indexOf('Once upon')).toBeLessThan(frame.indexOf('meanwhile'))
  })

  it('marks a stream that went silent as incomplete, with what arrived', async () => {
    const clock = {now: T0}
    const streams = new StreamReassembler({now: () => clock.now, limits: {idleTimeoutMs: 60_000}})
    const room = mountRoom({streams, streamSweepMs: 10})
    room.join(['ada', 'bob'])
    room.source.emit('frame', ...chunk(0, 'half a'))
    room.source.emit('frame', ...chunk(2, 'thought'))
    await vi.waitFor(() => expect(room.frame()).toContain('bob half a [streaming…]'))
    clock.now += 60_000
    await vi.waitFor(() => expect(flat(room.frame())).toContain('bob half athought [incomplete: the sender went silent, 1 chunk missing]'))
  })

  it('sends a pasted text over 64 KB as stream chunks and shows it once', async () => {
    const room = mountRoom({chunkIntervalMs: 1})
    room.join(['ada', 'bob'])
    await vi.waitFor(() => expect(room.frame()).toContain('connected'))
    const text = 'é'.repeat(MAX_FRAME_BYTES) + 'END'
    await room.typeKeys(text, '\r')
    await vi.waitFor(() => expect(room.source.sent.length).toBe(3))
    const payloads = room.source.sent.map((frame) => frame.payload as {stream: string; seq: number; delta: string; done?: boolean})
    expect(payloads.map((payload) => payload.seq)).toEqual([0, 1, 2])
    expect(new Set(payloads.map((payload) => payload.stream)).size).toBe(1)
    expect(payloads.at(-1)!.done).toBe(true)
    expect(payloads.map((payload) => payload.delta).join('')).toBe(text)
    await vi.waitFor(() => expect(flat(room.frame())).toContain('END [sending 3 chunks…] …'))
    // Shown once, its newest characters only.
    expect(flat(room.frame())).toContain(`you [${text.length - MAX_SHOWN_STREAM_CHARS} earlier characters] éé`)
    // One ack per chunk; the last settles the line.
    for (let index = 0; index < 3; index++) room.source.emit('frame', ...withRaw({type: 'ack', to: null, delivered: 1}))
    await vi.waitFor(() => expect(flat(room.frame())).toContain('END ✓1'))
    expect(flat(room.frame())).not.toContain('sending')
  })
})
