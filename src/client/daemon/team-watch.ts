/**
 * What `mesh team watch` follows (docs/cli.md, mesh team watch): a snapshot
 * of the team at work — members (`GET /team`), conversations (`GET
 * /chat/convs`), the running turns, the open delegation requests (`GET
 * /chat/delegations`) and the queues of the convs at work (`GET
 * /chat/conv/<conv>/queue`) — then every team event of `/events`. The
 * stream is opened before the snapshot is read, so nothing falls between
 * them; events already in the snapshot are applied again, which the state
 * model takes in its stride. A dropped stream (or a daemon that restarts,
 * maybe on another port) is reconnected and read afresh.
 */
import {setTimeout as sleep} from 'node:timers/promises'
import type {ConvList, ConversationView, LedgerRow, LedgerSnapshot, MemberSummary, TeamList, TurnRecord} from '../../daemon/chat/wire.js'
import {isMeshError} from '../../lib/errors.js'
import type {DaemonEventMessage} from '../../protocol/events.js'
import type {QueueFile} from '../../protocol/queue.js'
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
  /** The queues of the convs at work (live, coordinating, or owing a report); empty ones too, for their version. */
  queues: QueueFile[]
}

/** The event types the watch shows (and prints, one NDJSON line each, in a pipe). */
export function isTeamEvent(type: string): boolean {
  return type.startsWith('chat.') || type.startsWith('delegation.') || type.startsWith('queue.') || type.startsWith('team.') || type === 'task.completed' || type === 'commit.created'
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

export async function loadTeamSnapshot(endpoint: DaemonEndpoint): Promise<TeamSnapshot> {
  const call = callerOf(endpoint)
  const [{members}, {convs}, ledger] = await Promise.all([
    call<TeamList>('GET', '/team'),
    call<ConvList>('GET', '/chat/convs'),
    unlessUnserved(call<LedgerSnapshot>('GET', '/chat/delegations'), null),
  ])
  const requests = ledger?.open ?? []
  const live = convs.filter((conv) => conv.live && conv.turn_id)
  const atWork = new Set([...live.map((conv) => conv.conv), ...requests.flatMap((row) => [row.conv, ...(row.requester.conv ? [row.requester.conv] : [])])])
  const [turns, queues] = await Promise.all([
    Promise.all(live.map((conv) => unlessUnserved(call<TurnRecord | null>('GET', `/chat/turns/${encodeURIComponent(conv.turn_id!)}`), null))),
    Promise.all([...atWork].map((conv) => unlessUnserved(call<QueueFile | null>('GET', `/chat/conv/${encodeURIComponent(conv)}/queue`), null))),
  ])
  return {
    members,
    convs,
    turns: turns.filter((turn): turn is TurnRecord => turn !== null),
    requests,
    queues: queues.filter((queue): queue is QueueFile => queue !== null),
  }
}

export interface WatchTeamOptions {
  /** The daemon's address and token at each (re)connection: it may restart on another port. Null: not running. */
  locate(): Promise<DaemonEndpoint | null>
  signal: AbortSignal
  onSnapshot(snapshot: TeamSnapshot): void
  /** Each team event (isTeamEvent), in order, after the snapshot it follows. */
  onEvent(event: DaemonEventMessage): void
  /** The roster after a `team.*` event, read again (titles and problems are not in the event). */
  onMembers?(members: MemberSummary[]): void
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
  const refreshMembers = () =>
    void callDaemon<TeamList>({url: endpoint.url, token: endpoint.token, method: 'GET', path: '/team'}).then(
      ({members}) => options.onMembers?.(members),
      () => {},
    )
  const deliver = (event: DaemonEventMessage) => {
    options.onEvent(event)
    if (event.type === TEAM_EVENTS.created || event.type === TEAM_EVENTS.updated) refreshMembers()
  }
  const events = subscribeEvents({
    ...endpoint,
    onEvent(event) {
      if (!isTeamEvent(event.type)) return
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
