/**
 * loadAgentFolder: what `mesh agent serve [dir]` runs (DECISIONS: Agent
 * folder) — `agent.json`, the PublicCard, and exactly one of `handlers.js` /
 * `handlers.mjs`, whose default export has one function per card skill.
 * Every problem is found here, as one MeshError naming the file, before
 * anything listens.
 */
import {stat} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {invalid} from '../../lib/errors.js'
import type {PublicCard} from '../../protocol/agent-card.js'
import type {SkillHandlers} from '../kit/types.js'
import {CARD_FILE, FOLDER_DOCS, HANDLER_FILES} from './constants.js'
import {readAgentCard} from './load-card.js'
import {importHandlers} from './load-handlers.js'

/** An agent folder, read and checked: ready for createAgent({card, skills: handlers}). */
export interface AgentFolder {
  /** The folder, absolute. */
  dir: string
  /** Absolute path of agent.json. */
  cardFile: string
  /** Absolute path of handlers.js or handlers.mjs. */
  handlersFile: string
  card: PublicCard
  handlers: SkillHandlers
}

const quoteAll = (ids: string[]) => ids.map((id) => `"${id}"`).join(', ')

async function kindOf(path: string): Promise<'file' | 'folder' | 'other' | null> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : Promise.reject(error)))
  if (!info) return null
  return info.isDirectory() ? 'folder' : info.isFile() ? 'file' : 'other'
}

/** The one handlers file of the folder; a usage error when there is none, `handlers_ambiguous` when there are two. */
async function findHandlersFile(dir: string, shown: (file: string) => string): Promise<string> {
  const present: string[] = []
  for (const name of HANDLER_FILES) if ((await kindOf(join(dir, name))) === 'file') present.push(name)
  if (present.length === 0) {
    throw invalid('usage_agent_folder', `${shown('')} has no ${HANDLER_FILES.join(' or ')}: an agent folder holds ${CARD_FILE} and one handlers file whose default export maps each skill id to an async function (${FOLDER_DOCS})`)
  }
  // Two files would be two versions of the code with no telling which is meant: refuse rather than guess.
  if (present.length > 1) {
    throw invalid('handlers_ambiguous', `${shown('')} has both ${present.join(' and ')}; keep one of them (which one runs must not be a guess)`)
  }
  return present[0]
}

/** Every skill of the card has a handler and every handler a skill; otherwise one error listing both sides. */
function checkSkillsMatch(card: PublicCard, handlers: SkillHandlers, cardShown: string, handlersShown: string): void {
  const skillIds = card.skills.map((skill) => skill.id)
  const withoutHandler = skillIds.filter((id) => !Object.hasOwn(handlers, id))
  const withoutSkill = Object.keys(handlers).filter((id) => !skillIds.includes(id))
  if (withoutHandler.length === 0 && withoutSkill.length === 0) return
  const parts: string[] = []
  if (withoutHandler.length > 0) parts.push(`${withoutHandler.length === 1 ? 'skill' : 'skills'} ${quoteAll(withoutHandler)} of ${cardShown} ${withoutHandler.length === 1 ? 'has' : 'have'} no handler in ${handlersShown}`)
  if (withoutSkill.length > 0) parts.push(`${handlersShown} exports ${quoteAll(withoutSkill)}, which ${withoutSkill.length === 1 ? 'is' : 'are'} not a skill id of ${cardShown}`)
  throw invalid('handlers_mismatch', `${parts.join('; ')} (every skill needs exactly one handler)`, {
    field: withoutHandler.length > 0 ? `skills[${skillIds.indexOf(withoutHandler[0])}].id` : undefined,
  })
}

/**
 * Reads and checks the agent folder `dir`. Messages name files as
 * `dir/<file>`, the way the user wrote `dir`. Errors (MeshError, kind
 * invalid): `usage_agent_folder` (no such folder, no agent.json, no handlers
 * file), `agent_card_unreadable`, `agent_card_invalid` (with `field`),
 * `handlers_ambiguous`, `handlers_failed`, `handlers_invalid`, `handlers_mismatch`.
 */
export async function loadAgentFolder(dir: string): Promise<AgentFolder> {
  const absolute = resolve(dir)
  const shown = (file: string) => (file ? join(dir, file) : dir)
  const kind = await kindOf(absolute)
  if (kind !== 'folder') {
    throw invalid('usage_agent_folder', kind === null ? `No agent folder at ${dir}: it does not exist` : `${dir} is a file, not an agent folder (a folder holding ${CARD_FILE} and ${HANDLER_FILES.join(' or ')})`)
  }
  const cardFile = join(absolute, CARD_FILE)
  if ((await kindOf(cardFile)) !== 'file') {
    throw invalid('usage_agent_folder', `${shown('')} has no ${CARD_FILE}: an agent folder holds the PublicCard in ${CARD_FILE} and the skill code in ${HANDLER_FILES.join(' or ')} (${FOLDER_DOCS})`)
  }
  const card = await readAgentCard(cardFile, shown(CARD_FILE))
  const handlersName = await findHandlersFile(absolute, shown)
  const handlersFile = join(absolute, handlersName)
  const handlers = await importHandlers(handlersFile, shown(handlersName))
  checkSkillsMatch(card, handlers, shown(CARD_FILE), shown(handlersName))
  return {dir: absolute, cardFile, handlersFile, card, handlers}
}
