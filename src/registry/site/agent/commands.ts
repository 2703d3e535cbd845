/**
 * The copyable commands of a skill: `curl` and `mesh call` for its exact
 * URL. Every word is quoted for a POSIX shell by `shellWord` (the quoting
 * `mesh call` uses for its own retry line), so a hostile skill id or example
 * stays one argument: inside single quotes nothing is special but `'`, which
 * is closed, escaped and reopened (`'\''`).
 */
import {shellCommand} from '../../../lib/shell-quote.js'
import {SKILL_PATH_PREFIX} from '../../../protocol/agent-card.js'

/** spec Skill: kebab-case ids (schemas/skill.schema.json); others get a warning on the page. */
export const SKILL_ID_RULE = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** Longer example bodies are not put on a command line (the example is shown beside it). */
export const MAX_COMMAND_BODY = 1000

// Bidi controls and other invisible format characters inside JSON strings are written as \uXXXX escapes:
// the command then reads as it runs (the page drops raw bidi controls from every text it shows).
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g

/** Compact JSON of a body with invisible characters escaped (the same JSON value). */
export function commandJson(body: unknown): string {
  return JSON.stringify(body).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** `POST <base>/v1/<skill-id>`: the id is one path segment, percent-encoded. */
export function skillUrl(base: string, skillId: string): string {
  return base.replace(/\/+$/, '') + SKILL_PATH_PREFIX + encodeURIComponent(skillId)
}

export interface SkillCommands {
  curl: string
  meshCall: string
  /** The body both commands send (`{}` when the skill has no JSON example, or it is too long). */
  body: string
  /** True when the first JSON example was too long and `{}` is sent instead. */
  bodyTooLong: boolean
}

/**
 * The two commands for one skill. `base` is the agent's skill base URL
 * (the PublicCard's `url`, kept on the registered endpoint's origin);
 * `example` is the first example that is a JSON object, if any.
 */
export function skillCommands(base: string, skillId: string, example: Record<string, unknown> | undefined): SkillCommands {
  const json = example ? commandJson(example) : '{}'
  const bodyTooLong = json.length > MAX_COMMAND_BODY
  const body = bodyTooLong ? '{}' : json
  const curl = shellCommand(['curl', '-sS', '-X', 'POST', skillUrl(base, skillId), '-H', 'Content-Type: application/json', '--data', body])
  const meshCall = shellCommand(['mesh', 'call', base.replace(/\/+$/, ''), skillId, '--data', body])
  return {curl, meshCall, body, bodyTooLong}
}
