/**
 * The roster as `GET /team` answers it, read from the files: every card
 * without its prompt, with the access its turns run at on this machine
 * (issue 19; null when its `access:` entry is refused). The route and
 * `mesh team list` with no daemon running read it the same way.
 */
import {memberAccess} from '../chat/clients/access.js'
import {loadClients} from '../chat/clients/sources.js'
import type {TeamList} from '../chat/wire.js'
import type {ProjectReader} from '../project-files.js'
import {listMembers} from './cards.js'

export async function readRoster(reader: ProjectReader & {root: string}): Promise<TeamList> {
  const [members, clients] = await Promise.all([listMembers(reader), loadClients({root: reader.root})])
  const accessOf = (id: string) => {
    const access = memberAccess(clients, id)
    return 'level' in access ? access.level : null
  }
  return {members: members.map((member) => ({...member, access: accessOf(member.id)}))}
}
