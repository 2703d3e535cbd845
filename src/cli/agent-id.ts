/** The agent id rule, checked before any call so a typo is a usage error (exit 2) that names the flag. */
import {MeshError} from '../lib/errors.js'
import {AGENT_ID_PATTERN, AGENT_ID_RULE} from '../protocol/registry.js'

/** Throws `usage_agent_id` unless `id` is a well-formed agent id; `what` names the argument or flag. */
export function assertAgentId(id: string, what = 'agent_id'): string {
  if (!AGENT_ID_PATTERN.test(id)) {
    const shown = id.length > 70 ? `${id.slice(0, 64)}…` : id
    throw new MeshError('invalid', 'usage_agent_id', `${what} must be ${AGENT_ID_RULE}, got "${shown}"`)
  }
  return id
}
