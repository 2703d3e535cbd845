/**
 * Creating, changing and deleting members: every card is written through the
 * project writer (inside .mesh/, snapshot first, atomic), retired fields are
 * dropped on each write (spec: "accepted on input, dropped on write"), the
 * body is kept byte for byte unless a new prompt is given, and the member
 * token follows `exposure`. docs/daemon-api.md, Team.
 */
import {conflict, notFound} from '../../lib/errors.js'
import {TEAM_EVENTS, type TeamEventData} from '../../protocol/team.js'
import {editFrontmatter, splitFrontmatter, stringifyFrontmatter} from '../../standard/frontmatter.js'
import {migrateTeamCard} from '../../standard/versioning/team-card.js'
import type {DaemonContext} from '../context.js'
import {cardExists, cardPath, readCardFile, readCardText, type MemberCard} from './cards.js'
import {memberTokens} from './member-tokens.js'

/** A new card's client and model when the body names none: the base team's (spec: model defaults to the strongest alias). */
export const DEFAULT_CLIENT = 'claude'
export const DEFAULT_MODEL = 'opus'

export interface MemberInput {
  id: string
  title: string
  client?: string
  model?: string
  context?: string[]
  exposure?: 'internal' | 'external'
  effort?: string
  prompt?: string
}

export type MemberPatch = Partial<Omit<MemberInput, 'id' | 'client' | 'model' | 'effort'>> & {client?: string | null; model?: string | null; effort?: string | null}

/** The token follows the card: external → one exists, internal → none (revoke first, so no ask slips through). */
async function syncToken(context: DaemonContext, card: MemberCard) {
  const tokens = memberTokens(context)
  if (card.exposure === 'external') await tokens.ensure(card.id)
  else await tokens.revoke(card.id)
}

export async function createMember(context: DaemonContext, input: MemberInput): Promise<MemberCard> {
  // A link at the name counts as a card: it is deleted (DELETE /team/<id>), never written over unseen.
  if (await cardExists(context, input.id)) throw conflict('member_exists', `Team member ${input.id} already exists (.mesh/${cardPath(input.id)})`)
  const data: Record<string, unknown> = {
    id: input.id,
    title: input.title,
    client: input.client ?? DEFAULT_CLIENT,
    model: input.model ?? DEFAULT_MODEL,
    context: input.context ?? [],
    exposure: input.exposure ?? 'internal',
    ...(input.effort !== undefined ? {effort: input.effort} : {}),
  }
  const text = stringifyFrontmatter(data, input.prompt ?? '')
  await context.writer.write(cardPath(input.id), text, {reason: 'team.create'})
  const card = readCardText(input.id, text)
  await syncToken(context, card)
  context.events.publish(TEAM_EVENTS.created, {id: input.id} satisfies TeamEventData)
  return card
}

export async function patchMember(context: DaemonContext, id: string, patch: MemberPatch): Promise<MemberCard> {
  const before = await readCardFile(context, id)
  const split = splitFrontmatter(before)
  if (!split.hasFrontmatter || split.unterminated) throw conflict('member_malformed', `.mesh/${cardPath(id)} has no complete --- frontmatter block; fix it by hand`)
  let text: string
  try {
    text = migrateTeamCard(before, id).text
    text = editFrontmatter(text, (document) => {
      for (const key of ['title', 'client', 'model', 'context', 'exposure', 'effort'] as const) {
        const value = patch[key]
        if (value === undefined) continue
        if (value === null) document.delete(key)
        else document.set(key, document.createNode(value))
      }
    })
  } catch {
    throw conflict('member_malformed', `The frontmatter of .mesh/${cardPath(id)} is not valid YAML; fix it by hand`)
  }
  if (patch.prompt !== undefined) text = text.slice(0, text.length - splitFrontmatter(text).body.length) + patch.prompt
  const card = readCardText(id, text)
  // Revoking happens before the card says `internal`, so an ask never outlives the switch.
  if (card.exposure === 'internal') await syncToken(context, card)
  await context.writer.write(cardPath(id), text, {reason: 'team.update'})
  if (card.exposure === 'external') await syncToken(context, card)
  context.events.publish(TEAM_EVENTS.updated, {id} satisfies TeamEventData)
  return card
}

export async function deleteMember(context: DaemonContext, id: string): Promise<void> {
  // A card that is a link can be deleted (the link itself goes, never read): the way out of a refused card.
  if (!(await cardExists(context, id))) throw notFound('member_not_found', `No team member ${id} (.mesh/${cardPath(id)})`)
  await memberTokens(context).revoke(id)
  await context.writer.remove(cardPath(id), {reason: 'team.delete'})
  context.events.publish(TEAM_EVENTS.deleted, {id} satisfies TeamEventData)
}
