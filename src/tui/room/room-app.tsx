import type {EventEmitter} from 'node:events'
import {Box, useInput, useStdout} from 'ink'
import {useCallback, useEffect, useReducer, useRef, useState} from 'react'
import {STREAM_SWEEP_MS} from '../../client/cluster/constants.js'
import type {ClusterConnectionEvents, ConnectionStatus} from '../../client/cluster/connection.js'
import type {ClientFrame, MessageFrame, ServerFrame, UnknownFrame} from '../../client/cluster/frames.js'
import {parseRoomLine} from '../../client/cluster/input.js'
import {Outbox} from '../../client/cluster/outbox.js'
import type {RosterEntry} from '../../client/cluster/roster.js'
import {StreamReassembler, type AssembledStream} from '../../client/cluster/streams.js'
import {isMeshError, type MeshError} from '../../lib/errors.js'
import {InputLine} from './input-line.js'
import {applyInput, emptyEditor, type EditorKey} from './line-editor.js'
import {MessagePane} from './message-pane.js'
import {initialRoomState, roomReducer} from './room-state.js'
import {RosterPane} from './roster-pane.js'
import {StatusLine} from './status-line.js'

/** What the room view needs of a connection (ClusterConnection is one; tests pass a fake). */
export interface RoomSource extends EventEmitter<ClusterConnectionEvents> {
  send(frame: ClientFrame): void
}

/** Why the room view ended. */
export type RoomEnd = {reason: 'quit'} | {reason: 'gone'} | {reason: 'fatal'; error: MeshError}

export interface RoomAppProps {
  source: RoomSource
  clusterId: string
  agent: string
  onExit(end: RoomEnd): void
  /** Clock for timestamps and the reconnect countdown; injected by tests. */
  now?: () => number
  /** Joins peers' stream chunks; injected by tests (limits, clock). */
  streams?: StreamReassembler
  /** How often silent streams are given up (default STREAM_SWEEP_MS). */
  streamSweepMs?: number
  /** Pause between own outgoing stream chunks (default STREAM_CHUNK_INTERVAL_MS). */
  chunkIntervalMs?: number
}

const HELP = 'Enter sends to everyone · /msg <handle> <text> sends directly · //text sends a line starting with "/" · PgUp/PgDn scroll · ↑/↓ history · /quit or Ctrl-C leaves'
const ROSTER_WIDTH = 24

/**
 * `mesh cluster join` on a terminal: messages on the left, the roster on
 * the right, an input line and a status line below. Frames, status and
 * roster come from the source's events; typed lines go out through send().
 */
export function RoomApp({source, clusterId, agent, onExit, now = Date.now, streams: givenStreams, streamSweepMs = STREAM_SWEEP_MS, chunkIntervalMs}: RoomAppProps) {
  const [state, dispatch] = useReducer(roomReducer, undefined, () => initialRoomState(clusterId, agent))
  const [streams] = useState(() => givenStreams ?? new StreamReassembler({now}))
  // Own sends go out in order; a text over 64 KB as paced stream chunks.
  const [outbox] = useState(
    () => new Outbox({sink: source, chunkIntervalMs, onError: (error) => dispatch({type: 'notice', text: `not sent: ${error.message}`, now: new Date(now()).toISOString(), error: true})}),
  )
  useEffect(() => () => outbox.close(), [outbox])
  const [editor, setEditor] = useState(emptyEditor)
  // Keys can arrive faster than React re-renders: edit the latest state, not the rendered one.
  const editorRef = useRef(editor)
  const [scrollBack, setScrollBack] = useState(0)
  const [nowMs, setNowMs] = useState(now)
  const ended = useRef(false)
  const {stdout} = useStdout()
  const rows = Math.max(8, (stdout.rows || 24) - 1)
  const columns = stdout.columns || 80
  const paneHeight = rows - 2
  const iso = useCallback(() => new Date(now()).toISOString(), [now])

  // Leaving is reported from an effect, after the last state (the error, the
  // "deleted" line) was committed, so the final frame Ink prints shows it.
  const [ending, setEnding] = useState<RoomEnd | null>(null)
  const end = useCallback((result: RoomEnd) => {
    if (ended.current) return
    ended.current = true
    setEnding(result)
  }, [])
  useEffect(() => {
    if (ending) onExit(ending)
  }, [ending, onExit])

  useEffect(() => {
    const showStreams = (updates: AssembledStream[]) => updates.forEach((stream) => dispatch({type: 'stream', stream}))
    const onFrame = (frame: ServerFrame | UnknownFrame) => {
      if (frame.type === 'message') {
        const updates = streams.push(frame as MessageFrame)
        if (updates) return showStreams(updates)
      }
      dispatch({type: 'frame', frame, now: iso()})
    }
    const onStatus = (status: ConnectionStatus) => {
      // Chunks sent while this socket is away are lost for good (the wall stores nothing).
      if (status.state !== 'connected' && status.state !== 'connecting') showStreams(streams.closeAll('disconnected'))
      dispatch({type: 'status', status})
    }
    const onRoster = (roster: RosterEntry[]) => dispatch({type: 'roster', roster})
    const onProtocol = ({error}: {error: string}) => dispatch({type: 'notice', text: `skipped a bad frame from the relay: ${error}`, now: iso(), error: true})
    const onGone = () => end({reason: 'gone'})
    const onFatal = (error: MeshError) => {
      dispatch({type: 'notice', text: error.message, now: iso(), error: true})
      end({reason: 'fatal', error})
    }
    source.on('frame', onFrame).on('status', onStatus).on('roster', onRoster).on('protocol-error', onProtocol).on('gone', onGone).on('fatal', onFatal)
    return () => {
      source.off('frame', onFrame).off('status', onStatus).off('roster', onRoster).off('protocol-error', onProtocol).off('gone', onGone).off('fatal', onFatal)
    }
  }, [source, iso, end, streams])

  useEffect(() => {
    const timer = setInterval(() => streams.expire().forEach((stream) => dispatch({type: 'stream', stream})), streamSweepMs)
    return () => clearInterval(timer)
  }, [streams, streamSweepMs])

  // The "reconnecting in Ns" countdown needs a tick only while reconnecting.
  useEffect(() => {
    if (state.status.state !== 'reconnecting') return
    setNowMs(now())
    const timer = setInterval(() => setNowMs(now()), 1000)
    return () => clearInterval(timer)
  }, [state.status, now])

  const submit = (line: string) => {
    const action = parseRoomLine(line)
    if (action.kind === 'quit') return end({reason: 'quit'})
    if (action.kind === 'help') return dispatch({type: 'notice', text: HELP, now: iso()})
    if (action.kind === 'invalid') return dispatch({type: 'notice', text: action.message, now: iso(), error: true})
    if (action.kind !== 'send') return
    try {
      const chunks = outbox.send(action.frame)
      dispatch({type: 'sent', frame: action.frame, now: iso(), chunks})
      setScrollBack(0)
    } catch (error) {
      dispatch({type: 'notice', text: `not sent: ${isMeshError(error) ? error.message : String(error)}`, now: iso(), error: true})
    }
  }

  useInput((input: string, key: EditorKey) => {
    if (key.ctrl && input === 'c') return end({reason: 'quit'})
    if (key.pageUp || key.pageDown) {
      const page = Math.max(1, paneHeight - 1)
      const limit = Math.max(0, state.lines.length - paneHeight)
      return setScrollBack((back) => Math.max(0, Math.min(limit, back + (key.pageUp ? page : -page))))
    }
    const result = applyInput(editorRef.current, input, key)
    editorRef.current = result.state
    setEditor(result.state)
    for (const line of result.submitted) submit(line)
  })

  const online = state.roster.filter((entry) => entry.status === 'online').length
  return (
    <Box flexDirection="column" height={rows} width={columns}>
      <Box flexDirection="row" height={paneHeight}>
        <MessagePane lines={state.lines} you={state.you} height={paneHeight} scrollBack={scrollBack} />
        <RosterPane roster={state.roster} width={ROSTER_WIDTH} height={paneHeight} />
      </Box>
      <InputLine editor={editor} active={!ended.current} />
      <StatusLine status={state.status} online={online} nowMs={nowMs} clusterId={clusterId} scrollBack={scrollBack} />
    </Box>
  )
}
