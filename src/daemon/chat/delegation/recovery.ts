/**
 * Open delegations after a restart (issue 19, Recovery): a brief still open
 * when the daemon stopped (or was killed) was cut off, and nothing else
 * would ever answer it — it would also hold its fan-out place for ever. At
 * start each open row is re-sent to its member's session, once; a row
 * already re-sent by an earlier start, or whose member is gone (no usable
 * card), is closed as `failure` with the reason, which wakes its requester.
 * docs/daemon.md, Delegation — After a restart.
 */
import {isMeshError} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {readMember} from '../../team/cards.js'
import type {ChatEngine} from '../types.js'
import type {DelegationResentData} from '../wire.js'
import type {Closing} from './closing.js'
import type {Ledger, LedgerRow} from './ledger.js'
import {resentBriefText} from './render.js'

/** Debug-stream tag of what a start did with the open requests it found. */
export const RECOVERY_TAG = 'delegation.recover'

/** Why `row`'s member cannot take it again, or null when its card is usable. */
async function goneReason(context: DaemonContext, row: LedgerRow): Promise<string | null> {
  try {
    const card = await readMember(context, row.member)
    return card.problem ? `${row.member}'s card cannot be used (${card.problem})` : null
  } catch (error) {
    return isMeshError(error) && error.code === 'member_not_found' ? `${row.member} is no longer on the team` : `${row.member}'s card cannot be read (${(error as Error).message})`
  }
}

/** Re-sends or closes every open row; answers how many of each. */
export async function recoverOpenRequests(context: DaemonContext, engine: ChatEngine, ledger: Ledger, closing: Closing): Promise<{resent: number; closed: number}> {
  const counts = {resent: 0, closed: 0}
  const close = async (row: LedgerRow, reason: string) => {
    counts.closed++
    context.debug.log({lvl: 'warn', tag: RECOVERY_TAG, msg: `${row.request_id} (${row.requester.member} → ${row.member}) closed: ${reason}`, conv: row.conv})
    await closing.closed(ledger.close(row.conv, [row.request_id], 'failure', {reason}))
  }
  for (const row of ledger.snapshot().open) {
    if (row.resent_at) {
      await close(row, `the daemon stopped again before ${row.member} answered; it was re-sent once already, so it is not sent again`)
      continue
    }
    const gone = await goneReason(context, row)
    if (gone) {
      await close(row, `${gone}; the brief cut off by the daemon's stop could not be re-sent`)
      continue
    }
    ledger.markResent(row.request_id)
    try {
      const sent = await engine.submit({conv: row.conv, member: row.member, text: resentBriefText(row), author: row.requester.member, origin: 'delegation', merge: true, request_ids: [row.request_id], anchor: row.anchor})
      counts.resent++
      context.timeline.append('delegation.resent', {author: row.requester.member, text: `${row.requester.member} → ${row.member}: re-sent after a restart`, conv: row.conv, request_id: row.request_id, member: row.member, requester: row.requester, turn_id: sent.turn_id} satisfies DelegationResentData)
      context.debug.log({lvl: 'info', tag: RECOVERY_TAG, msg: `${row.request_id} (${row.requester.member} → ${row.member}) re-sent to ${row.conv}`, conv: row.conv})
    } catch (error) {
      await close(row, `the brief could not be re-sent after the restart: ${isMeshError(error) ? error.code : (error as Error).message}`)
    }
  }
  return counts
}
