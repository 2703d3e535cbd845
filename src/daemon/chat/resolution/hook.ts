/**
 * The resolution final hook (CHAT.md: hooks run in order, resolution first):
 * resolves the task a finished turn names, then makes the commits its
 * `mesh-commit` markers ask for — when the turn ran as the git-manager, or
 * as anyone when the team has no git-manager (spec: Commit and agent
 * conventions; docs/daemon.md, Agent commits). Every error goes to the
 * debug stream under `chat.resolution`; the hook never throws.
 */
import type {DaemonContext} from '../../context.js'
import {listMembers, readMember} from '../../team/index.js'
import type {FinalHook, TurnFinal} from '../types.js'
import {commitForMember} from './agent-commit.js'
import {GIT_MANAGER, RESOLUTION_TAG} from './constants.js'
import {resolveTask} from './resolve.js'

/** `Model:` when the card names none. */
const UNKNOWN_MODEL = 'unknown'

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Who may commit through a marker: the git-manager; anyone when the roster has none. */
export async function mayCommit(context: DaemonContext, profile: string): Promise<boolean> {
  if (profile === GIT_MANAGER) return true
  const members = await listMembers(context)
  return !members.some((member) => member.id === GIT_MANAGER)
}

async function runCommits(context: DaemonContext, final: TurnFinal): Promise<void> {
  const markers = final.markers.filter((marker) => marker.kind === 'commit')
  if (markers.length === 0) return
  const log = {conv: final.conv, agent_id: final.profile}
  if (!(await mayCommit(context, final.profile))) {
    context.debug.log({lvl: 'warn', tag: RESOLUTION_TAG, msg: `${final.profile} asked for ${markers.length} commit(s): the team has a ${GIT_MANAGER}, who makes its commits`, ...log})
    return
  }
  const model = (await readMember(context, final.profile).catch(() => null))?.model ?? UNKNOWN_MODEL
  for (const marker of markers) {
    if (!('data' in marker)) continue
    const {subject, files, body, task} = marker.data
    try {
      if (typeof subject !== 'string') throw new Error('the marker has no subject')
      await commitForMember(context, {
        member: final.profile,
        model,
        subject,
        files: files as string[],
        ...(typeof body === 'string' ? {body} : {}),
        ...(typeof task === 'string' ? {task} : final.anchor?.task ? {task: final.anchor.task} : {}),
      })
    } catch (error) {
      context.debug.log({lvl: 'warn', tag: RESOLUTION_TAG, msg: `commit for ${final.profile} not made: ${reason(error)}`, ...log, data: {turn_id: final.turn_id}})
    }
  }
}

export function resolutionHook(context: DaemonContext): FinalHook {
  return async (final) => {
    try {
      await resolveTask(context, final)
    } catch (error) {
      context.debug.log({lvl: 'error', tag: RESOLUTION_TAG, msg: `resolving the task of turn ${final.turn_id} failed: ${reason(error)}`, conv: final.conv, agent_id: final.profile})
    }
    try {
      await runCommits(context, final)
    } catch (error) {
      context.debug.log({lvl: 'error', tag: RESOLUTION_TAG, msg: `the commits of turn ${final.turn_id} failed: ${reason(error)}`, conv: final.conv, agent_id: final.profile})
    }
  }
}
