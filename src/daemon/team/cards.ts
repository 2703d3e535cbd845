/**
 * The team roster as files: `.mesh/team/<id>.md`, frontmatter = the authored
 * fields (spec: Agent team member; DECISIONS: Team cards), body = the
 * member's prompt. Reading never throws for one bad card: the list shows it
 * with `problem` (docs/daemon-api.md, Team). A card that is not a regular
 * file inside `.mesh/team/` (a link to the portal token, to
 * team-tokens.yaml, to /proc/self/environ…) is such a bad card: never read
 * through, shown with its problem and nothing of its target (issue 18).
 */
import {containedEntryExists, isPathRefused} from '../../lib/contained-files.js'
import {conflict, invalid, notFound} from '../../lib/errors.js'
import {describeSchemaError, getValidator} from '../../lib/schemas.js'
import {TEAM_FIELDS, TEAM_RETIRED_FIELDS} from '../../standard/constants.js'
import {describeReadError, parseFrontmatter} from '../../standard/frontmatter.js'
import {MEMBER_ID_PATTERN} from '../../protocol/team.js'
import {entryRefusal, listProjectFolder, readProjectText, reportRefusedPath, type ProjectReader} from '../project-files.js'

/** spec: a member id, equal to the file name's stem (the rule is written once, in src/protocol/team.ts). */
export const MEMBER_ID = MEMBER_ID_PATTERN
export const TEAM_DIR = 'team'
export type Exposure = 'internal' | 'external'

export interface MemberSummary {
  id: string
  title: string | null
  client: string | null
  model: string | null
  context: string[]
  exposure: Exposure
  effort?: string
  /** Relative to the repository root, e.g. `.mesh/team/developer.md`. */
  path: string
  /** Why the card cannot be used as it is; null when it is sound. */
  problem: string | null
}

export interface MemberCard extends MemberSummary {
  prompt: string
}

/** A well-formed member id, or 400 `invalid_id` (so `..`, slashes and encoded forms never reach a path). */
export function memberIdOf(raw: string | undefined): string {
  if (typeof raw === 'string' && MEMBER_ID.test(raw)) return raw
  throw invalid('invalid_id', `a member id is a lowercase letter then 1 to 31 of a-z, 0-9 and -; got ${JSON.stringify(String(raw).slice(0, 40))}`, {field: 'id'})
}

export const cardPath = (id: string) => `${TEAM_DIR}/${id}.md`

const str = (value: unknown) => (typeof value === 'string' ? value : null)

/** The card of one file's text; never throws. */
export function readCardText(id: string, text: string): MemberCard {
  const base: MemberCard = {id, title: null, client: null, model: null, context: [], exposure: 'internal', path: `.mesh/${cardPath(id)}`, problem: null, prompt: ''}
  let data: unknown
  try {
    const parsed = parseFrontmatter(text)
    if (!parsed.hasFrontmatter || parsed.unterminated) return {...base, prompt: parsed.body, problem: 'the card has no complete --- frontmatter block'}
    data = parsed.data
    base.prompt = parsed.body
  } catch (error) {
    return {...base, problem: `the frontmatter is not valid YAML: ${describeReadError(error, 2)}`}
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {...base, problem: 'the frontmatter is not a mapping'}
  const record = data as Record<string, unknown>
  const card: MemberCard = {
    ...base,
    title: str(record.title) ?? (typeof record.name === 'string' ? record.name : null),
    client: str(record.client),
    model: str(record.model),
    context: Array.isArray(record.context) ? record.context.filter((item): item is string => typeof item === 'string') : [],
    exposure: record.exposure === 'external' ? 'external' : 'internal',
    ...(typeof record.effort === 'string' ? {effort: record.effort} : {}),
  }
  const validate = getValidator('team-member')
  // Retired fields are accepted on input (spec); a missing id is the stem's.
  if (!validate({id, ...record})) {
    const first = validate.errors![0]
    card.problem = first.keyword === 'pattern' ? describeSchemaError(first, {id, ...record}) : `${first.instancePath || 'the frontmatter'} ${first.message ?? 'is invalid'}`.trim()
  } else if (record.id !== undefined && record.id !== id) {
    card.problem = `its id ${JSON.stringify(record.id)} is not the file name ${id}`
  }
  return card
}

export const summaryOf = ({prompt: _prompt, ...summary}: MemberCard): MemberSummary => summary

/** The problem of a card that is not a regular file: what it is, never what it points at. */
const refusedProblem = (reason: string) => `the card is ${reason}: the daemon reads no card through a link; replace it with the card itself`

/** A card shown with only its id, path and problem (nothing read from it). */
const unreadCard = (id: string, problem: string): MemberCard => ({...readCardText(id, ''), problem})

/** The text of a member's card: 404 `member_not_found` when there is none, `{refused}` when it is no regular file. */
async function readCardSource(context: ProjectReader, id: string): Promise<{text: string} | {refused: string}> {
  try {
    const text = await readProjectText(context, cardPath(id))
    if (text === null) throw notFound('member_not_found', `No team member ${id} (.mesh/${cardPath(id)})`)
    return {text}
  } catch (error) {
    if (isPathRefused(error)) return {refused: String((error.details as {reason: string}).reason)}
    throw error
  }
}

/** The raw text of a member's card, 404 `member_not_found`, or 409 `member_malformed` for a card that is no regular file. */
export async function readCardFile(context: ProjectReader, id: string): Promise<string> {
  const source = await readCardSource(context, id)
  if ('refused' in source) throw conflict('member_malformed', `.mesh/${cardPath(id)} is ${source.refused}; the daemon reads no card through a link: replace it with the card itself`)
  return source.text
}

/** Whether `.mesh/team/<id>.md` exists as anything, a link included (not followed). */
export const cardExists = (context: ProjectReader, id: string): Promise<boolean> => containedEntryExists(context.meshPath(), cardPath(id))

/** A member's card; one that cannot be used (broken, or no regular file) carries its `problem`. */
export async function readMember(context: ProjectReader, id: string): Promise<MemberCard> {
  const source = await readCardSource(context, id)
  return 'refused' in source ? unreadCard(id, refusedProblem(source.refused)) : readCardText(id, source.text)
}

/** Every card of `.mesh/team/*.md` with its prompt, by id; `.archive/` and other folders are not members. */
export async function listCards(context: ProjectReader): Promise<MemberCard[]> {
  const entries = await listProjectFolder(context, TEAM_DIR)
  const cards: MemberCard[] = []
  for (const entry of entries) {
    if (entry.isDirectory() || !entry.name.endsWith('.md')) continue
    const stem = entry.name.slice(0, -3)
    if (!MEMBER_ID.test(stem)) {
      cards.push({id: stem, title: null, client: null, model: null, context: [], exposure: 'internal', path: `.mesh/${TEAM_DIR}/${entry.name}`, problem: 'the file name is not a member id', prompt: ''})
      continue
    }
    const refusal = entryRefusal(entry)
    if (refusal !== null) {
      // A link is listed with its problem, never opened (issue 18).
      reportRefusedPath(context, `.mesh/${cardPath(stem)}`, refusal)
      cards.push(unreadCard(stem, refusedProblem(refusal)))
      continue
    }
    const source = await readCardSource(context, stem).catch(() => null)
    cards.push(source === null ? unreadCard(stem, 'the card cannot be read') : 'refused' in source ? unreadCard(stem, refusedProblem(source.refused)) : readCardText(stem, source.text))
  }
  return cards.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The roster without prompts (`GET /team`). */
export const listMembers = async (context: ProjectReader): Promise<MemberSummary[]> => (await listCards(context)).map(summaryOf)

/** The authored fields in the spec's order (id, title, client, model, context, exposure, effort). */
export type AuthoredFields = Partial<Record<(typeof TEAM_FIELDS)[number], unknown>>
export const RETIRED_FIELDS: readonly string[] = TEAM_RETIRED_FIELDS
