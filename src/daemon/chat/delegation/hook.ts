/**
 * What delegation reads from each turn's final (spec: Delegation v33/v34,
 * items 1, 2 and 5): `mesh-delegate` markers hand work on; on a member
 * session, `mesh-report` markers (or a failed turn) close the requests and
 * wake each requester; with a git-manager on the team, a report of
 * uncommitted files becomes its brief. docs/daemon.md, Delegation.
 */
import {isMeshError} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {readMember} from '../../team/cards.js'
import type {ChatEngine, FinalHook, TurnFinal} from '../types.js'
import type {Closing} from './closing.js'
import {GIT_MANAGER, sessionMemberOf} from './constants.js'
import {delegate} from './delegate.js'
import type {Ledger} from './ledger.js'
import {commitBriefText, cut, readReport, refusalText, type Refused, type Report} from './render.js'

/** A wake input carries this in `meta` when it tells refusals: a turn it starts gets no second refusal wake (no loop). */
export const REFUSAL_META = 'delegation_refused'

const str = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)

export function delegationHook(context: DaemonContext, engine: ChatEngine, ledger: Ledger, closing: Closing): FinalHook {
  const log = (lvl: 'debug' | 'info' | 'warn' | 'error', msg: string, conv?: string) => context.debug.log({lvl, tag: 'delegation', msg, ...(conv ? {conv} : {})})
  const {closed, submit, carried} = closing

  /** (a) Briefs of this turn, from its conv and profile; refusals go back to the requester once. True when it was woken. */
  const handOn = async (final: TurnFinal): Promise<boolean> => {
    const refused: Refused[] = []
    for (const marker of final.markers) {
      if (marker.kind !== 'delegate') continue
      const member = str(marker.data.member) ?? ''
      const brief = str(marker.data.brief) ?? str(marker.data.text)
      if (!member || !brief) {
        refused.push({member, code: 'invalid_marker', message: 'a mesh-delegate block needs "member" and "brief"'})
        continue
      }
      try {
        await delegate(context, engine, ledger, {
          from_conv: final.conv,
          from_member: final.profile,
          member,
          brief,
          task: str(marker.data.task) ?? final.anchor?.task,
          initiative: str(marker.data.initiative) ?? final.anchor?.initiative,
        })
      } catch (error) {
        if (!isMeshError(error)) throw error
        refused.push({member, code: error.code, message: error.message})
      }
    }
    if (refused.length === 0) return false
    const text = refusalText(refused)
    if (final.inputs.some((input) => input.meta?.[REFUSAL_META] !== undefined)) {
      // This turn was itself told of refusals: telling it again could go on for ever.
      log('warn', `${final.profile} was refused again in ${final.conv}; not woken a second time: ${text}`, final.conv)
      return false
    }
    await submit({conv: final.conv, member: final.member, text, author: 'daemon', origin: 'wake', merge: true, meta: {[REFUSAL_META]: refused.map((r) => r.code)}, ...carried(final.conv)})
    return true
  }

  /** (c) spec v38 item 5: with a git-manager on the team, uncommitted files reported by someone else become its brief. */
  const commitByGitManager = async (final: TurnFinal, report: Report, chain: string[]) => {
    if (report.commit !== null || report.files.length === 0 || final.profile === GIT_MANAGER) return
    // A turn woken by the git-manager's own report must not send the same files back to it: that could go on for ever.
    if (final.inputs.some((input) => input.origin === 'wake' && input.author === GIT_MANAGER)) return
    const gitManager = await readMember(context, GIT_MANAGER).catch(() => null)
    if (!gitManager || gitManager.problem) return
    const anchor = {task: report.task ?? final.anchor?.task, initiative: final.anchor?.initiative}
    try {
      await delegate(context, engine, ledger, {from_conv: final.conv, from_member: final.profile, member: GIT_MANAGER, brief: commitBriefText(final.profile, report, anchor), task: anchor.task, initiative: anchor.initiative, chain})
    } catch (error) {
      log('warn', `the commit of ${report.files.length} file(s) reported by ${final.profile} could not go to ${GIT_MANAGER}: ${(error as Error).message}`, final.conv)
    }
  }

  /** (b) Reports close rows (`for`, or all); a failed turn closes the rows it answered; each closed row wakes its requester. */
  const answer = async (final: TurnFinal, woken: boolean) => {
    const onSession = sessionMemberOf(final.conv) !== null
    const reports = final.markers.flatMap((marker) => (marker.kind === 'report' ? [readReport(marker.data)] : []))
    // The reporter's chain before its rows close: a commit brief it triggers stays under the same chain.
    const chain = ledger.chainOf({conv: final.conv, member: final.profile})
    for (const report of reports) {
      if (onSession) {
        const rows = ledger.close(final.conv, report.for, report.outcome, {summary: report.summary, files: report.files, ...(report.commit !== undefined ? {commit: report.commit} : {})})
        const unknown = (report.for ?? []).filter((id) => !rows.some((row) => row.request_id === id))
        if (unknown.length) log('info', `a report in ${final.conv} names requests that are not open there: ${unknown.join(', ')}`, final.conv)
        await closed(rows)
        // On a member session, only a report that answered something is work to commit (a stray repeat is not).
        if (rows.length === 0) continue
      }
      await commitByGitManager(final, report, chain)
    }
    if (!onSession) return
    const answered = [...new Set(final.inputs.flatMap((input) => input.request_ids ?? []))]
    if (answered.length === 0) return
    if (final.status === 'failed') {
      // A stopped or killed daemon is not the member's failure: the rows stay open in the saved ledger, and the
      // next start re-sends them once (recovery.ts).
      if (final.reason === 'shutdown' || final.reason === 'daemon_lost') return
      await closed(ledger.close(final.conv, answered, 'failure', {reason: `the turn failed (${final.reason ?? 'exit'}${final.exit_code !== null ? `, exit code ${final.exit_code}` : ''})`, summary: cut(final.text)}))
    } else if (reports.length === 0 && !woken && !ledger.isCoordinating(final.conv)) {
      // No report, waiting on no one and not woken again: nothing would ever close these, and the requester would wait for ever.
      await closed(ledger.close(final.conv, answered, 'unreported', {reason: 'the turn ended without a report', summary: cut(final.text)}))
    }
  }

  return async (final) => {
    const woken = await handOn(final)
    await answer(final, woken)
  }
}
