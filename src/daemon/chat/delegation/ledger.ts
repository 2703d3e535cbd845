/**
 * The open-request ledger (spec: Delegation v33/v34 — "each unanswered brief
 * is a row in an open-request ledger on that conv (requester, anchor,
 * chain)"), and the four refusals a conforming daemon enforces (cycle,
 * depth, fan-out, re-entry; DECISIONS: Delegation). Pure: time, ids and
 * saving are injected, so the rules are tested without a daemon.
 * docs/daemon.md, Delegation, states the rules in words.
 */
import {MeshError} from '../../../lib/errors.js'
import type {TurnAnchor} from '../types.js'
import {RECENT_CLOSED_KEPT, REFUSAL_STATUS, sessionOf, type RefusalCode} from './constants.js'

/** How a request ended: a report's `status` read (`done` → success), a failed turn, a turn that ended without a report, or the operator's cancel (issue 19). */
export type DelegationOutcome = 'success' | 'failure' | 'blocked' | 'partial' | 'unreported' | 'cancelled'

/** Who asked: the conv the brief came from and the member (profile) that wrote it. `conv` null: the operator, through `POST /chat/delegate`. */
export interface Requester {
  conv: string | null
  member: string
}

export interface LedgerRow {
  request_id: string
  /** The member session that owes the report: `m-<member>`. */
  conv: string
  /** The member the brief went to. */
  member: string
  requester: Requester
  anchor: TurnAnchor
  /** Member ids from the root of the delegation to the requester, inclusive (empty when the operator asked). */
  chain: string[]
  brief: string
  opened_at: string
  status: 'open' | 'closed'
  outcome?: DelegationOutcome
  closed_at?: string
  /** Why a request closed without a report (e.g. `turn failed: timeout`). */
  reason?: string
  summary?: string
  files?: string[]
  commit?: string | null
  /** Issue 19, Recovery: when a daemon start re-sent the open brief (once; a second stop closes it instead). */
  resent_at?: string
}

/** What a report (or a failure) tells about the requests it closes. */
export interface ClosingReport {
  summary?: string
  files?: string[]
  commit?: string | null
  reason?: string
}

/** What is saved to `.mesh/.runtime/chat/ledger.json`. */
export interface LedgerState {
  version: 1
  open: LedgerRow[]
  /** Newest first, at most RECENT_CLOSED_KEPT. */
  closed: LedgerRow[]
}

export interface LedgerSnapshot extends LedgerState {
  limits: {max_depth: number; max_fan_out: number}
}

export interface Refusal {
  code: RefusalCode
  status: 409 | 429
  message: string
  /** The requester's chain the refusal was judged on. */
  chain: string[]
}

export interface OpenInput {
  requester: Requester
  member: string
  brief: string
  anchor?: TurnAnchor
  /** The chain to judge and record; default chainOf(requester). The git-manager rule passes the reporter's chain from before its report closed it. */
  chain?: string[]
}

export interface Ledger {
  /** The requester's chain: the chains of the open rows its conv is answering, in order, without repeats, then the requester. */
  chainOf(requester: Requester): string[]
  /** The refusal a new brief from `requester` to `target` meets, or null. */
  check(requester: Requester, target: string, chain?: string[]): Refusal | null
  /** Opens a row; throws the refusal (a MeshError with its code and status) when check() refuses. */
  open(input: OpenInput): LedgerRow
  /** Closes the open rows of `conv` named in `ids` (all of them when `ids` is omitted); unknown or closed ids are skipped. */
  close(conv: string, ids: string[] | undefined, outcome: DelegationOutcome, report?: ClosingReport): LedgerRow[]
  /** The open rows a member session conv owes a report on, oldest first. */
  openRequestsOf(conv: string): LedgerRow[]
  /** The open rows `conv` asked for and waits on, oldest first. */
  requestsBy(conv: string | null): LedgerRow[]
  /** `conv` made requests that are still open: it is coordinating, so not idle for the queue. */
  isCoordinating(conv: string): boolean
  row(requestId: string): LedgerRow | null
  /** Notes that a start re-sent the open row `requestId` (issue 19, Recovery); false when it is not open. */
  markResent(requestId: string): boolean
  snapshot(): LedgerSnapshot
}

export interface LedgerOptions {
  maxDepth: number
  maxFanOut: number
  clock: () => number
  newRequestId: () => string
  /** What a previous daemon saved. */
  state?: LedgerState
  /** Called with the whole state after every change (the caller writes it atomically). */
  persist?: (state: LedgerState) => void
}

/** The refusal as the error routes answer: 409 or 429 with the code, the message and the chain. */
export function refusalError(refusal: Refusal): MeshError {
  return new MeshError(refusal.status === 429 ? 'rate_limited' : 'conflict', refusal.code, refusal.message, {details: {chain: refusal.chain}})
}

const copy = (row: LedgerRow): LedgerRow => structuredClone(row)

export function createLedger(options: LedgerOptions): Ledger {
  if (!(options.maxDepth >= 1) || !(options.maxFanOut >= 1)) throw new TypeError('createLedger: maxDepth and maxFanOut must be at least 1')
  const open: LedgerRow[] = (options.state?.open ?? []).map(copy)
  let closed: LedgerRow[] = (options.state?.closed ?? []).map(copy)
  const iso = () => new Date(options.clock()).toISOString()
  const save = () => options.persist?.({version: 1, open: open.map(copy), closed: closed.map(copy)})

  const chainOf = (requester: Requester): string[] => {
    // The operator (no conv) is no member: a brief straight from it starts an empty chain.
    if (requester.conv === null) return []
    const chain: string[] = []
    // An operator conv (`c-…`) answers no request, so its chain is just the requester.
    for (const row of open) if (row.conv === requester.conv) for (const id of row.chain) if (!chain.includes(id)) chain.push(id)
    if (!chain.includes(requester.member)) chain.push(requester.member)
    return chain
  }

  const check = (requester: Requester, target: string, chain = chainOf(requester)): Refusal | null => {
    const refuse = (code: RefusalCode, message: string): Refusal => ({code, status: REFUSAL_STATUS[code], message, chain})
    const path = chain.join(' → ') || 'the operator'
    // Re-entry before cycle: the requester is in its own chain, and delegating to yourself is its own mistake.
    if (requester.conv !== null && (target === requester.member || sessionOf(target) === requester.conv)) return refuse('delegation-reentry', `${target} cannot delegate to its own session; do the work in this turn`)
    if (chain.includes(target)) return refuse('delegation-cycle', `${target} is already in the chain ${path}; report back to it instead`)
    if (chain.length > options.maxDepth) return refuse('delegation-max-depth', `the chain ${path} is ${chain.length} long; the limit is ${options.maxDepth}`)
    const sessions = new Set(open.filter((row) => row.requester.conv === requester.conv).map((row) => row.member))
    sessions.add(target)
    if (sessions.size > options.maxFanOut) return refuse('delegation-fan-out', `this conversation already waits on ${sessions.size - 1} member sessions (${[...sessions].filter((m) => m !== target).join(', ')}); the limit is ${options.maxFanOut}`)
    return null
  }

  const requestsBy = (conv: string | null) => open.filter((row) => row.requester.conv === conv).map(copy)

  return {
    chainOf,
    check,
    open(input) {
      const chain = input.chain ?? chainOf(input.requester)
      const refusal = check(input.requester, input.member, chain)
      if (refusal) throw refusalError(refusal)
      const row: LedgerRow = {
        request_id: options.newRequestId(),
        conv: sessionOf(input.member),
        member: input.member,
        requester: {...input.requester},
        anchor: {...input.anchor},
        chain: [...chain],
        brief: input.brief,
        opened_at: iso(),
        status: 'open',
      }
      open.push(row)
      save()
      return copy(row)
    },
    close(conv, ids, outcome, report = {}) {
      const wanted = ids === undefined ? null : new Set(ids)
      const closing = open.filter((row) => row.conv === conv && (wanted === null || wanted.has(row.request_id)))
      if (closing.length === 0) return []
      const at = iso()
      for (const row of closing) {
        open.splice(open.indexOf(row), 1)
        Object.assign(row, {status: 'closed', outcome, closed_at: at})
        for (const key of ['summary', 'files', 'commit', 'reason'] as const) if (report[key] !== undefined) Object.assign(row, {[key]: report[key]})
      }
      closed = [...closing.slice().reverse(), ...closed].slice(0, RECENT_CLOSED_KEPT)
      save()
      return closing.map(copy)
    },
    openRequestsOf: (conv) => open.filter((row) => row.conv === conv).map(copy),
    requestsBy,
    isCoordinating: (conv) => open.some((row) => row.requester.conv === conv),
    row(requestId) {
      const found = open.find((row) => row.request_id === requestId) ?? closed.find((row) => row.request_id === requestId)
      return found ? copy(found) : null
    },
    markResent(requestId) {
      const found = open.find((row) => row.request_id === requestId)
      if (!found) return false
      found.resent_at = iso()
      save()
      return true
    },
    snapshot: () => ({version: 1, open: open.map(copy), closed: closed.map(copy), limits: {max_depth: options.maxDepth, max_fan_out: options.maxFanOut}}),
  }
}
