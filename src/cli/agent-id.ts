/** The agent id rule, checked before any call so a typo is a usage error (exit 2) that names the flag. */
import {MeshError} from '../lib/errors.js'

// spec: registry — agent_id is 3 to 64 characters of [A-Za-z0-9_-].
const AGENT_ID = /^[A-Za-z0-9_-]{3,64}$/

/** Throws `usage_agent_id` unless `id` is a well-formed agent id; `what` names the argument or flag. */
export function assertAgentId(id: string, what = 'agent_id'): string {
  if (!AGENT_ID.test(id)) {
    const shown = id.length > 70 ? `${id.slice(0, 64)}…` : id
    throw new MeshError('invalid', 'usage_agent_id', `${what} must be 3 to 64 characters of A-Z a-z 0-9 _ -, got "${shown}"`)
  }
  return id
}
