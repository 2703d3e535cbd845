/**
 * What happens when ledger rows close, however they closed — a report, a
 * failed turn, a turn without a report, the operator's cancel, or a restart
 * that found the member gone: `delegation.closed` in the timeline, and each
 * requester's conversation woken once (spec v34: every requester gets its
 * own wake); the operator (no conv) only sees the event. docs/daemon.md,
 * Delegation.
 */
import type {DaemonContext} from '../../context.js'
import type {ChatEngine, TurnInput} from '../types.js'
import {sessionMemberOf} from './constants.js'
import type {Ledger, LedgerRow} from './ledger.js'
import {wakeText} from './render.js'
import type {DelegationClosedData} from '../wire.js'

/** The member whose card runs `conv`: the engine's view, else the session's owner, else the one who asked. */
export const convMember = (engine: ChatEngine, conv: string, fallback: string) => engine.conversation(conv)?.member ?? sessionMemberOf(conv) ?? fallback

export interface Closing {
  /** Announces the closed rows and wakes their requesters. */
  closed(rows: LedgerRow[]): Promise<void>
  /** Submits a wake or a brief; a refusal is a debug line (a wake is never worth failing the hook for). */
  submit(input: TurnInput): Promise<void>
  /** The open request ids `conv` owes: a woken member session goes on answering them in the turn the wake starts. */
  carried(conv: string): {request_ids?: string[]}
  /** A wake of `conv` is on its way in: the conv is still coordinating (its rows closed, its wake not yet submitted). */
  isWaking(conv: string): boolean
}

/** One sentence of `delegation.closed`. */
const closedText = (row: LedgerRow) =>
  row.outcome === 'cancelled' ? `the operator cancelled ${row.requester.member} → ${row.member}` : `${row.member} answered ${row.requester.member}: ${row.outcome}${row.reason ? ` (${row.reason})` : ''}`

export function createClosing(context: DaemonContext, engine: ChatEngine, ledger: Ledger): Closing {
  const submit = async (input: TurnInput) => {
    try {
      await engine.submit(input)
    } catch (error) {
      context.debug.log({lvl: 'warn', tag: 'delegation', msg: `could not wake ${input.conv}: ${(error as Error).message}`, conv: input.conv})
    }
  }
  const carried = (conv: string): {request_ids?: string[]} => {
    const ids = ledger.openRequestsOf(conv).map((row) => row.request_id)
    return ids.length ? {request_ids: ids} : {}
  }
  // Convs whose wake is being submitted. A row leaves the ledger before its wake is in the engine (submit awaits the
  // card): without this the requester's own final could find it neither coordinating nor woken, and announce it idle
  // — `mesh ask` would stop following one turn too early.
  const waking = new Map<string, number>()
  const count = (conv: string, by: number) => {
    const left = (waking.get(conv) ?? 0) + by
    if (left > 0) waking.set(conv, left)
    else waking.delete(conv)
  }
  return {
    submit,
    carried,
    isWaking: (conv) => waking.has(conv),
    async closed(rows) {
      // Counted before the first await: closed() is called in the same tick as ledger.close.
      const woken = rows.flatMap((row) => (row.requester.conv === null ? [] : [row.requester.conv]))
      for (const conv of woken) count(conv, 1)
      try {
        await announceAndWake(rows)
      } finally {
        for (const conv of woken) {
          count(conv, -1)
          // A wake refused (the member gone) leaves the conv with nothing to run: it is idle now.
          if (!waking.has(conv)) engine.settle(conv)
        }
      }
    },
  }

  async function announceAndWake(rows: LedgerRow[]) {
    for (const row of rows) {
      context.timeline.append('delegation.closed', {
        author: row.member,
        text: closedText(row),
        conv: row.conv,
        request_id: row.request_id,
        outcome: row.outcome ?? 'failure',
        member: row.member,
        requester: row.requester,
        ...(row.reason ? {reason: row.reason} : {}),
      } satisfies DelegationClosedData)
      if (row.requester.conv === null) continue
      const conv = row.requester.conv
      await submit({conv, member: convMember(engine, conv, row.requester.member), text: wakeText(row), author: row.member, origin: 'wake', merge: true, anchor: row.anchor, meta: {request_id: row.request_id}, ...carried(conv)})
    }
  }
}
