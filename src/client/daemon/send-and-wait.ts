/**
 * One message to a team member and its answer, for `mesh ask`: subscribe to
 * `/events` first (so no line of the turn is missed), `POST /chat/send`, then
 * follow that turn's `chat.assistant.delta` lines to its
 * `chat.assistant.final` — and, with `follow` (issue 19), the whole piece of
 * work it started (work-tracker.ts) up to the conversation's `chat.idle`.
 * If the event stream drops (or cannot be opened) before the first final,
 * the turn is polled with `GET /chat/turns/<turn_id>` until it ends.
 * docs/cli.md, mesh ask.
 */
import {setTimeout as sleep} from 'node:timers/promises'
import type {ChatDeltaData, ChatFinalData, ChatTurnStartedData, SendAnswer, SendBody, TurnRecord} from '../../daemon/chat/wire.js'
import {isMeshError, MeshError} from '../../lib/errors.js'
import type {DaemonEventMessage} from '../../protocol/events.js'
import {callDaemon} from './daemon-client.js'
import {subscribeEvents} from './events.js'
import {createWorkTracker, type WorkSummary, type WorkTracker, type WorkUpdate} from './work-tracker.js'

export const POLL_INTERVAL_MS = 500
/** Events held while `/chat/send` has not answered yet (only chat events are held). */
const MAX_HELD_EVENTS = 10_000

export interface SendAndWaitOptions {
  url: string
  token: string
  body: SendBody & {member: string}
  /** The daemon took the message: its conv and turn id. */
  onSent?(sent: SendAnswer): void
  onStarted?(data: ChatTurnStartedData): void
  /** One line of the turn's text, in order, as soon as it is complete (marker blocks are never sent: issue 19). */
  onDelta?(line: string, seq: number): void
  /** The event stream is gone before the final; the turn is polled from now on. */
  onFallback?(reason: string): void
  /** Go on after the first final, following the work it started until its conversation is idle (issue 19). */
  follow?: boolean
  /** Each step of the work (the first turn's too), in order: turns, lines, tools, finals, delegations, refusals. */
  onWork?(update: WorkUpdate): void
  /** Give up waiting (the turn goes on in the daemon): `ask_timeout`. Default: as long as the turn runs. */
  timeoutMs?: number
  signal?: AbortSignal
  pollIntervalMs?: number
}

export interface TurnOutcome {
  conv: string
  turn_id: string
  member: string
  profile?: string
  status: 'done' | 'failed'
  /** The final message, markers removed. */
  text: string
  reason?: string
  /** The daemon's words on a failure (from the final event; a polled turn has only `reason`). */
  detail?: string
  /** Every line of the turn reached onDelta, in order (false after a fallback or a gap). */
  streamed: boolean
  /** What the followed work was (events only; absent after a fallback to polling). */
  work?: WorkSummary
  /** Why following ended before the conversation went idle: the event stream closed (a daemon stop, a lost connection). */
  detached?: string
}

const isChatEvent = (event: DaemonEventMessage) => event.type.startsWith('chat.')

/** Sends the message and resolves with the turn's end; rejects with the daemon's MeshError (409 conv_busy, 429 at_capacity, 404 member_not_found…). */
export async function sendAndWait(options: SendAndWaitOptions): Promise<TurnOutcome> {
  const {url, token} = options
  const held: DaemonEventMessage[] = []
  let turnId: string | null = null
  let nextSeq = 0
  let streamed = true
  let onFinal!: (data: ChatFinalData) => void
  const finalEvent = new Promise<ChatFinalData>((resolve) => (onFinal = resolve))
  let onIdle!: () => void
  const idle = new Promise<void>((resolve) => (onIdle = resolve))
  let tracker: WorkTracker | null = null

  const handle = (event: DaemonEventMessage) => {
    if (!isChatEvent(event) && !event.type.startsWith('delegation.')) return
    if (turnId === null) {
      if (held.length < MAX_HELD_EVENTS) held.push(event)
      else streamed = false
      return
    }
    if (tracker) {
      for (const update of tracker.handle(event)) options.onWork?.(update)
      if (tracker.done) onIdle()
    }
    if (event.data.turn_id !== turnId) return
    if (event.type === 'chat.turn.started') options.onStarted?.(event.data as unknown as ChatTurnStartedData)
    else if (event.type === 'chat.assistant.delta') {
      const delta = event.data as unknown as ChatDeltaData
      if (delta.seq !== nextSeq) streamed = false
      nextSeq = delta.seq + 1
      options.onDelta?.(delta.text, delta.seq)
    } else if (event.type === 'chat.assistant.final') onFinal(event.data as unknown as ChatFinalData)
  }

  const events = subscribeEvents({url, token, onEvent: handle})
  let lost: string | null = null
  try {
    await events.opened
  } catch (error) {
    // A refused token is the caller's to fix; a stream that cannot open is no reason not to ask.
    if (isMeshError(error) && (error.kind === 'unauthorized' || error.kind === 'forbidden')) throw error
    lost = (error as Error).message
  }

  const stop = new AbortController()
  const onAbort = () => stop.abort()
  options.signal?.addEventListener('abort', onAbort, {once: true})
  try {
    const sent = await callDaemon<SendAnswer>({url, token, method: 'POST', path: '/chat/send', body: options.body})
    turnId = sent.turn_id
    tracker = createWorkTracker({conv: sent.conv, turn_id: sent.turn_id})
    options.onSent?.(sent)
    for (const event of held.splice(0)) handle(event)

    const base = {conv: sent.conv, turn_id: sent.turn_id, member: sent.member}
    const viaEvents = finalEvent.then(async (data): Promise<TurnOutcome> => {
      const outcome: TurnOutcome = {
        ...base,
        profile: data.profile,
        status: data.status,
        text: data.text,
        ...(data.reason ? {reason: data.reason} : {}),
        ...(data.detail ? {detail: data.detail} : {}),
        streamed: streamed && lost === null,
      }
      if (!options.follow) return {...outcome, work: tracker!.summary()}
      // The work goes on until the conversation is idle; a stream that closes first (the daemon stopped) ends it here.
      const closed = await Promise.race([idle.then(() => null), events.closed])
      return {...outcome, work: tracker!.summary(), ...(closed ? {detached: `the event stream closed (${closed.code}${closed.reason ? ` ${closed.reason}` : ''})`} : {})}
    })
    const viaPolling = (async (): Promise<TurnOutcome> => {
      if (lost === null) {
        const closed = await Promise.race([events.closed, finalEvent.then(() => null)])
        if (closed === null) return new Promise<never>(() => {})
        lost = `the event stream closed (${closed.code}${closed.reason ? ` ${closed.reason}` : ''})`
      }
      options.onFallback?.(lost)
      const record = await pollTurn({url, token, turnId: sent.turn_id, signal: stop.signal, intervalMs: options.pollIntervalMs ?? POLL_INTERVAL_MS})
      return {...base, ...(record.profile ? {profile: record.profile} : {}), status: record.status as 'done' | 'failed', text: record.text ?? '', ...(record.reason ? {reason: record.reason} : {}), streamed: false}
    })()
    const waits: Array<Promise<TurnOutcome>> = [viaEvents, viaPolling, aborted(stop.signal, sent)]
    if (options.timeoutMs !== undefined) waits.push(timedOut(options.timeoutMs, stop.signal, sent))
    return await Promise.race(waits)
  } finally {
    stop.abort()
    options.signal?.removeEventListener('abort', onAbort)
    events.close()
  }
}

/** Polls `GET /chat/turns/<id>` until the turn is done or failed. */
export async function pollTurn(options: {url: string; token: string; turnId: string; signal: AbortSignal; intervalMs: number}): Promise<TurnRecord> {
  for (;;) {
    const record = await callDaemon<TurnRecord>({url: options.url, token: options.token, method: 'GET', path: `/chat/turns/${encodeURIComponent(options.turnId)}`})
    if (record.status === 'done' || record.status === 'failed') return record
    await sleep(options.intervalMs, undefined, {signal: options.signal})
  }
}

const stillRunning = (sent: SendAnswer) => `the turn goes on in the daemon (conversation ${sent.conv}, turn ${sent.turn_id})`

function timedOut(ms: number, signal: AbortSignal, sent: SendAnswer): Promise<never> {
  return sleep(ms, undefined, {signal}).then(
    () => Promise.reject(new MeshError('unavailable', 'ask_timeout', `No answer from ${sent.member} within ${ms / 1000} s; ${stillRunning(sent)}`, {details: {conv: sent.conv, turn_id: sent.turn_id}})),
    () => new Promise<never>(() => {}),
  )
}

function aborted(signal: AbortSignal, sent: SendAnswer): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fail = () => reject(new MeshError('unavailable', 'ask_interrupted', `Stopped waiting; ${stillRunning(sent)}`, {details: {conv: sent.conv, turn_id: sent.turn_id}}))
    if (signal.aborted) fail()
    else signal.addEventListener('abort', fail, {once: true})
  })
}
