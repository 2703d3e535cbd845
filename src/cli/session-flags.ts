/** Checks of the session flags (--agent, --credentials) shared by the inbox commands, before any file or network use. */
import {credentialsDir} from '../registry/credentials.js'
import {assertAgentId} from './agent-id.js'
import {assertCredentialsDir} from './credentials-dir.js'

export async function checkSessionFlags(flags: {agent?: string; credentials?: string}): Promise<void> {
  if (flags.agent !== undefined) assertAgentId(flags.agent, '--agent')
  await assertCredentialsDir(credentialsDir(flags.credentials))
}
