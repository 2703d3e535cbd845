import type {TeamList} from '../../daemon/chat/wire.js'
import {FILES_NOTE, readProject, type ReadSource} from '../project-reads.js'
import {memberTable} from '../team-render.js'
import type {CommandOutcome} from './outcome.js'

/** `mesh team list`: the roster through the running daemon, else from the cards on disk (saying so). */
export async function teamListView(flags: {dir?: string}): Promise<CommandOutcome<{members: TeamList['members']; source: ReadSource}>> {
  const {source, result} = await readProject<TeamList>(flags.dir, {
    daemon: (session) => session.call<TeamList>('GET', '/team'),
    files: async (reader) => (await import('../../daemon/team/roster.js')).readRoster(reader),
  })
  const {members} = result
  return {
    result: {members, source},
    lines: members.length === 0 ? ['No team members yet; add one with `mesh team add`.'] : memberTable(members),
    notes: source === 'files' ? [`${FILES_NOTE} (.mesh/team/)`] : [],
  }
}
