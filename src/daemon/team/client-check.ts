/**
 * A card may name only a client this machine can run (issue 19: `mesh team
 * edit --client <typo>` was written, and every later turn of the member
 * failed). Known: the default templates plus the clients of this machine's
 * clients files (src/daemon/chat/clients/sources.ts) — a client named in a
 * file mesh refuses for now (untrusted, changed) is known too: trusting the
 * file is the fix, not another name. docs/daemon-api.md, Team.
 */
import {join} from 'node:path'
import {invalid} from '../../lib/errors.js'
import {userConfigDir} from '../../lib/user-config.js'
import {loadClients, USER_CLIENTS_FILE} from '../chat/clients/sources.js'
import type {DaemonContext} from '../context.js'

/** Throws 400 `unknown_client` (field `client`) unless `name` is a client of this machine. */
export async function assertKnownClient(context: Pick<DaemonContext, 'root'>, name: string): Promise<void> {
  const state = await loadClients({root: context.root})
  if (name in state.clients || name in state.refused) return
  const known = [...new Set([...Object.keys(state.clients), ...Object.keys(state.refused)])].sort()
  const unreadable = state.refusedAll ? `; and ${state.refusedAll}` : ''
  throw invalid('unknown_client', `Unknown client ${JSON.stringify(name.slice(0, 40))}: this machine knows ${known.join(', ')} (add a template in ${join(userConfigDir(), USER_CLIENTS_FILE)} or, trusted, in .mesh/agents/clients.yaml)${unreadable}`, {field: 'client'})
}
