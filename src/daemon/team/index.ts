/** The team area of the daemon: the roster `.mesh/team/*.md`, member tokens and exposed members' cards. */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {teamRoutes} from './routes.js'

export const teamArea = (context: DaemonContext): DaemonArea => ({name: 'team', routes: teamRoutes(context)})
export {verifyMemberToken, memberTokens, TEAM_TOKENS_FILE} from './member-tokens.js'
export {readMember, listMembers, memberIdOf, MEMBER_ID} from './cards.js'
