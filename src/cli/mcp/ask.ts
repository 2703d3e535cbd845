/**
 * `team_ask`: one message to a member and its answer, as `mesh ask` sends it
 * (src/client/daemon/send-and-wait.ts: `/events` first, `POST /chat/send`,
 * the turn's final; polled if the stream drops). The tool call lasts as long
 * as the turn; a client that gives up cancels the request, not the turn.
 */
import {MeshError} from '../../lib/errors.js'
import type {McpProject} from './caller.js'

export async function askMember(project: McpProject, input: {member: string; text: string; conv?: string}): Promise<unknown> {
  const daemon = await project.requireDaemon('team_ask')
  const [{readPortalToken}, {sendAndWait}] = await Promise.all([import('../../client/daemon/locate.js'), import('../../client/daemon/send-and-wait.js')])
  const token = await readPortalToken(project.root)
  if (!token) throw new MeshError('not_found', 'portal_token_missing', 'The daemon runs but its portal token (.mesh/credentials/portal-token) is missing; restart it with `mesh serve`')
  const outcome = await sendAndWait({url: daemon.url, token, body: {member: input.member, text: input.text, ...(input.conv ? {conv: input.conv} : {})}})
  const {conv, turn_id, member, status, text, reason, detail} = outcome
  return {conv, turn_id, member, status, text, ...(reason ? {reason} : {}), ...(detail ? {detail} : {})}
}
