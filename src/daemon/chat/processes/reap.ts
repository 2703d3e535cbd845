/**
 * At start, the turns a killed daemon left unfinished (issue 19, Recovery):
 * each left a process record (records.ts) or at least its turn file. A
 * client still running — checked to be that very process, not a later one
 * that got its pid — has its process group stopped (SIGTERM, then SIGKILL
 * after the grace); then the turn is reported lost, so the engine writes its
 * final (`failed`, reason `daemon_lost`). docs/daemon.md, Recovery.
 */
import type {DaemonContext} from '../../context.js'
import {KILL_GRACE_MS} from '../constants.js'
import {groupAlive, groupCarries, groupsCarrying, processStart, stopGroup} from './identity.js'
import {forgetTurn, PROCS_DIR, readProcessRecord, readTurnFile, TURNS_DIR, turnIdsIn, type ProcessRecord} from './records.js'

/** Debug-stream tag of what the start found of the last daemon's turns. */
export const RECOVER_TAG = 'chat.recover'

export interface LostTurn {
  turn_id: string
  conv: string
  member: string
  profile: string
  request_ids: string[]
  started_at: string | null
  /** What became of its client, in a sentence. */
  detail: string
}

/** The record's client is still running: the same process (pid and start), or, its leader gone, a process of its group carrying the turn's id. */
async function stillRunning(record: ProcessRecord): Promise<boolean> {
  if (record.start !== null && (await processStart(record.pid)) === record.start) return true
  return (await groupAlive(record.pid)) && (await groupCarries(record.pid, `MESH_TURN_ID=${record.turn_id}`))
}

export async function reapLostTurns(context: Pick<DaemonContext, 'meshPath' | 'debug'>, graceMs = KILL_GRACE_MS): Promise<LostTurn[]> {
  const ids = new Set([...(await turnIdsIn(context, PROCS_DIR)), ...(await turnIdsIn(context, TURNS_DIR))])
  const lost: LostTurn[] = []
  for (const turnId of ids) {
    const record = await readProcessRecord(context, turnId)
    const facts = record ?? (await readTurnFile(context, turnId))
    let detail: string
    if (record && (await stillRunning(record))) {
      await stopGroup(record.pid, graceMs)
      detail = `the daemon that ran this turn (pid ${record.daemon_pid}) was killed; its client (pid ${record.pid}) went on alone and was stopped at the next start`
    } else if (record) {
      detail = `the daemon that ran this turn (pid ${record.daemon_pid}) was killed; its client (pid ${record.pid}) had already ended`
    } else {
      // Killed between the spawn and the record: on Linux the client is still found by its turn id.
      const groups = await groupsCarrying(`MESH_TURN_ID=${turnId}`)
      for (const group of groups) await stopGroup(group, graceMs)
      detail = groups.length > 0 ? 'the daemon that ran this turn was killed before its client was recorded; the client, found by its turn id, was stopped at the next start' : 'the daemon that ran this turn was killed before its client was recorded'
    }
    await forgetTurn(context, turnId)
    if (!facts) {
      context.debug.log({lvl: 'warn', tag: RECOVER_TAG, msg: `turn ${turnId} left by the last daemon names no conversation; its files were removed`})
      continue
    }
    context.debug.log({lvl: 'warn', tag: RECOVER_TAG, msg: `turn ${turnId} of ${facts.profile} in ${facts.conv}: ${detail}`, conv: facts.conv, agent_id: facts.profile})
    lost.push({turn_id: turnId, conv: facts.conv, member: facts.member, profile: facts.profile, request_ids: facts.request_ids, started_at: record?.started_at ?? null, detail})
  }
  return lost
}
