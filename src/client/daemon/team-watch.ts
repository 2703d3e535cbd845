/**
 * What `mesh team watch` follows (docs/cli.md, mesh team watch): a snapshot
 * of the team at work — members (`GET /team`), conversations (`GET
 * /chat/convs`), the running turns, the open delegation requests (`GET
 * /chat/delegations`) and the queues that hold items, idle convs' too (`GET
 * /chat/queues`, with the empty queues of the convs at work) — then every
 * team event of `/events`, and the file events of team cards and queues (a
 * hand edit, a restore, a deletion), after which they are read again. The
 * stream is opened before the snapshot is read, so nothing falls between
 * them; events already in the snapshot are applied again, which the state
 * model takes in its stride. A dropped stream (or a daemon that restarts,
 * maybe on another port) is reconnected and read afresh.
 */
import {setTimeout as sleep} from 'node:timers/promises'
import type {ConvList, ConversationView, LedgerRow, LedgerSnapshot, MemberSummary, TeamList, TurnRecord} from '../../daemon/chat/wire.js'
import {isMeshError} from '../../lib/errors.js'
import type {DaemonEventMessage} from '../../protocol/events.js'
import type {QueueFile, QueueList} from '../../protocol/queue.js'
import {TEAM_EVENTS} from '../../protocol/team.js'
import {callDaemon} from './daemon-client.js'
import {subscribeEvents} from './events.js'

export type {ChatDeltaData, ChatFinalData, ChatTurnStartedData, ChatUserData, ConversationView, DelegationClosedData, DelegationOpenedData, LedgerRow, MemberSummary, TurnRecord} from '../../daemon/chat/wire.js'

export interface TeamSnapshot {
  members: MemberSummary[]
  convs: ConversationView[]
  /** The running turn of each live conv. */
  turns: TurnRecord[]
  /** Open delegation requests, oldest first (empty when the daemon has no delegation routes). */
  requests: LedgerRow[]
  /** The queues that hold items (idle convs' too), and those of the convs at work (live, coordinating, or owing a report) even empty, for their version. */
  queues: QueueFile[]
}

const CARD_FILE = /^\.mesh\/team\/[^/]+\.md$/
const QUEUE_FILE = /^\.mesh\/queues\/([^/]+)\.json$/

/**
 * The team file a `file.changed` is about: a card or a queue changed on disk some other way than through
 * the daemon's routes (a hand edit, a restore, a deletion), which announce their own `team.*`/`queue.*`.
 */
export function teamFileOf(event: DaemonEventMessage): {kind: 'card'} | {kind: 'queue'; conv: string} | null {
  const path = event.type === 'file.changed' ? (event.data as {path?: unknown} | null)?.path : undefined
  if (typeof path !== 'string') return null
  if (CARD_FILE.test(path)) return {kind: 'card'}
  const queue = QUEUE_FILE.exec(path)
  return queue ? {kind: 'queue', conv: queue[1]} : null
}

/** The events the watch shows (and prints, one NDJSON line each, in a pipe). */
export function isTeamEvent(event: DaemonEventMessage): boolean {
  const {type} = event
  return type.startsWith('chat.') || type.startsWith('delegation.') || type.startsWith('queue.') || type.startsWith('team.') || type === 'task.completed' || type === 'commit.created' || teamFileOf(event) !== null
}

export interface DaemonEndpoint {
  url: string
  token: string
}

type Call = <T>(method: string, path: string) => Promise<T>

const callerOf =
  (endpoint: DaemonEndpoint): Call =>
  (method, path) =>
    callDaemon({url: endpoint.url, token: endpoint.token, method, path})

/** A route another area may not serve yet answers 404 `not_found`: read as nothing. */
async function unlessUnserved<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read
  } catch (error) {
    if (isMeshError(error) && error.code === 'not_found') return fallback
    throw error
  }
}

const readQueue = (call: Call, conv: string) => unlessUnserved(call<QueueFile | null>('GET', `/chat/conv/${encodeURIComponent(conv)}/queue`), null)

export async function loadTeamSnapshot(endpoint: DaemonEndpoint): Promise<TeamSnapshot> {
  const call = callerOf(endpoint)
  const [{members}, {convs}, ledger, held] = await Promise.all([
    call<TeamList>('GET', '/team'),
    call<ConvList>('GET', '/chat/convs'),
    unlessUnserved(call<LedgerSnapshot>('GET', '/chat/delegations'), null),
    unlessUnserved(call<QueueList>('GET', '/chat/queues'), {queues: []}),
  ])
  const requests = ledger?.open ?? []
  const live = convs.filter((conv) => conv.live && conv.turn_id)
  const listed = new Set(held.queues.map((queue) => queue.conv))
  const atWork = new Set([...live.map((conv) => conv.conv), ...requests.flatMap((row) => [row.conv, ...(row.requester.conv ? [row.requester.conv] : [])])].filter((conv) => !listed.has(conv)))
  const [turns, queues] = await Promise.all([
    Promise.all(live.map((conv) => unlessUnserved(call<TurnRecord | null>('GET', `/chat/turns/${encodeURIComponent(conv.turn_id!)}`), null))),
    Promise.all([...atWork].map((conv) => readQueue(call, conv))),
  ])
  return {
    members,
    convs,
    turns: turns.filter((turn): turn is TurnRecord => turn !== null),
    requests,
    queues: [...held.queues, ...queues.filter((queue): queue is QueueFile => queue !== null)],
  }
}

export interface WatchTeamOptions {
  /** The daemon's address and token at each (re)connection: it may restart on another port. Null: not running. */
  locate(): Promise<DaemonEndpoint | null>
  signal: AbortSignal
  onSnapshot(snapshot: TeamSnapshot): void
  /** Each team event (isTeamEvent), in order, after the snapshot it follows. */
  onEvent(event: DaemonEventMessage): void
  /** The roster after a `team.*` event or a card's file event, read again (titles and problems are not in the event). */
  onMembers?(members: MemberSummary[]): void
  /**
   * A queue read again after its file changed on disk (a hand edit, a restore, a deletion: empty), in the order
   * of the events: its conv's `queue.*` events that come meanwhile are delivered after it.
   */
  onQueue?(queue: QueueFile): void
  onState?(state: {connected: boolean; reason?: string}): void
  retryMs?: number
}

const MAX_RETRY_MS = 5_000

/** Follows the team until the signal aborts; throws only when the daemon refuses the portal token. */
export async function watchTeam(options: WatchTeamOptions): Promise<void> {
  let retry = options.retryMs ?? 500
  let connected: boolean | undefined
  const report = (next: boolean, reason?: string) => {
    if (next !== connected) options.onState?.({connected: next, ...(reason ? {reason} : {})})
    connected = next
  }
  while (!options.signal.aborted) {
    const endpoint = await options.locate()
    if (endpoint) {
      const reason = await followOnce(endpoint, options, () => {
        retry = options.retryMs ?? 500
        report(true)
      })
      if (options.signal.aborted) return
      report(false, reason)
    } else report(false, 'the daemon is not running')
    try {
      await sleep(retry, undefined, {signal: options.signal})
    } catch {
      return
    }
    retry = Math.min(MAX_RETRY_MS, retry * 2)
  }
}

/** One connection: stream, snapshot, events until the stream closes. Resolves with why it ended. */
async function followOnce(endpoint: DaemonEndpoint, options: WatchTeamOptions, onLive: () => void): Promise<string> {
  let held: DaemonEventMessage[] | null = []
  const call = callerOf(endpoint)
  const refreshMembers = () =>
    void call<TeamList>('GET', '/team').then(
      ({members}) => options.onMembers?.(members),
      () => {},
    )
  /** Convs whose queue is being read again, with their `queue.*` events held until it is in. */
  const rereading = new Map<string, DaemonEventMessage[]>()
  /** Convs whose file changed again during their read: read once more after it. */
  const again = new Set<string>()
  const rereadQueue = (conv: string) => {
    if (rereading.has(conv)) {
      again.add(conv)
      return
    }
    rereading.set(conv, [])
    void readQueue(call, conv)
      .then(
        (queue) => queue && options.onQueue?.(queue),
        () => {},
      )
      .finally(() => {
        const waiting = rereading.get(conv) ?? []
        rereading.delete(conv)
        for (const event of waiting) deliver(event)
        if (again.delete(conv)) rereadQueue(conv)
      })
  }
  const deliver = (event: DaemonEventMessage) => {
    const conv = event.type.startsWith('queue.') ? (event.data as {conv?: unknown} | null)?.conv : undefined
    const waiting = typeof conv === 'string' ? rereading.get(conv) : undefined
    if (waiting) {
      waiting.push(event)
      return
    }
    options.onEvent(event)
    if (event.type === TEAM_EVENTS.created || event.type === TEAM_EVENTS.updated) refreshMembers()
    const file = teamFileOf(event)
    if (file?.kind === 'card') refreshMembers()
    else if (file?.kind === 'queue' && options.onQueue) rereadQueue(file.conv)
  }
  const events = subscribeEvents({
    ...endpoint,
    onEvent(event) {
      if (!isTeamEvent(event)) return
      if (held) held.push(event)
      else deliver(event)
    },
  })
  const stop = () => events.close()
  options.signal.addEventListener('abort', stop, {once: true})
  try {
    try {
      await events.opened
    } catch (error) {
      if (isMeshError(error) && (error.kind === 'unauthorized' || error.kind === 'forbidden')) throw error
      return (error as Error).message
    }
    let snapshot: TeamSnapshot
    try {
      snapshot = await loadTeamSnapshot(endpoint)
    } catch (error) {
      if (isMeshError(error) && (error.kind === 'unauthorized' || error.kind === 'forbidden')) throw error
      return (error as Error).message
    }
    options.onSnapshot(snapshot)
    const buffered = held
    held = null
    for (const event of buffered) deliver(event)
    onLive()
    const closed = await events.closed
    return `the event stream closed (${closed.code}${closed.reason ? ` ${closed.reason}` : ''})`
  } finally {
    options.signal.removeEventListener('abort', stop)
    events.close()
  }
}
