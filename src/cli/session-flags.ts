/** The inbox commands' session: flags (--agent, --credentials) checked before any file or network use, then opened. */
import {credentialsDir} from '../agent/credentials.js'
import type {AgentSession, SessionFlags} from '../agent/session.js'
import {assertAgentId} from './agent-id.js'
import {assertCredentialsDir} from './credentials-dir.js'

export async function openCheckedSession(flags: SessionFlags): Promise<AgentSession> {
  if (flags.agent !== undefined) assertAgentId(flags.agent, '--agent')
  await assertCredentialsDir(await credentialsDir(flags.credentials))
  // Loaded when a command runs, not when oclif reads the command files.
  const {openAgentSession} = await import('../agent/session.js')
  return openAgentSession(flags)
}
