/** The team area of the daemon: the roster `.mesh/team/*.md`, member tokens and exposed members' cards. */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {migrateRoster} from './roster-migration.js'
import {teamRoutes} from './routes.js'

/** start: an older roster is migrated before daemon.json announces the daemon (spec Versioning v36–v37; docs/daemon.md, Roster migration). */
export const teamArea = (context: DaemonContext): DaemonArea => ({
  name: 'team',
  routes: teamRoutes(context),
  async start() {
    await migrateRoster(context)
  },
})
export {verifyMemberToken, memberTokens, TEAM_TOKENS_FILE} from './member-tokens.js'
export {readMember, listMembers, memberIdOf, MEMBER_ID} from './cards.js'
export {boundariesFor, BOUNDARIES, type Boundary} from './boundaries.js'
export {migrateRoster, CONVS_DIR, ARCHIVE_DIR, type RosterMigrationResult} from './roster-migration.js'
