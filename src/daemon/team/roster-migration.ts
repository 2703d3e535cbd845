/**
 * The daemon migrates an older roster itself when it starts (spec Versioning
 * v36 "cards migrated in place", v37 "daemon migrates older rosters itself
 * (rename, archive other seeded cards to `team/.archive/`, repoint convs)").
 * The plan is src/standard/versioning/roster-plan.ts; this file carries it
 * out through the project writer and says every action once in the debug
 * stream. A roster that needs nothing is not written and logs nothing, so a
 * second start changes nothing. docs/daemon.md, Roster migration.
 */
import {writeContainedFile} from '../../lib/contained-files.js'
import {TEAM_EVENTS, type TeamEventData} from '../../protocol/team.js'
import {decodeUtf8ForRewrite} from '../../standard/project/utf8.js'
import {planRosterMigration, type RosterCard, type RosterStep} from '../../standard/versioning/roster-plan.js'
import type {DaemonContext} from '../context.js'
import {listProjectFolder, readProjectFile, readProjectText} from '../project-files.js'
import {cardPath, MEMBER_ID, TEAM_DIR} from './cards.js'
import {memberTokens} from './member-tokens.js'

/** Where archived cards go (spec v37: `team/.archive/`); listMembers never reads it. */
export const ARCHIVE_DIR = `${TEAM_DIR}/.archive`
/** The chat area's state of one conversation, `<conv>.json`, whose `member` is the member the conv's session belongs to. */
export const CONVS_DIR = '.runtime/chat/convs'
const REASON = 'team.migrate'
/** spec: Logs and debug stream — the canonical tag of an archive made by the daemon's roster migration. */
const ARCHIVE_TAG = 'init-archive'

export interface RosterMigrationResult {
  steps: RosterStep[]
  /** Conversations whose `member` was changed. */
  repointed: Array<{conv: string; from: string; to: string}>
}

const shown = (relative: string) => `.mesh/${relative}`

/** The cards of `.mesh/team/*.md` whose stem is a member id; an unreadable one is said once and left alone. */
async function readRoster(context: DaemonContext): Promise<RosterCard[]> {
  const entries = await listProjectFolder(context, TEAM_DIR)
  const cards: RosterCard[] = []
  for (const entry of entries) {
    const stem = entry.name.slice(0, -3)
    // A card that is a link is never read nor migrated (issue 18); the team routes show its problem.
    if (!entry.isFile() || !entry.name.endsWith('.md') || !MEMBER_ID.test(stem)) continue
    try {
      const bytes = await readProjectFile(context, cardPath(stem))
      if (bytes === null) continue
      cards.push({stem, text: decodeUtf8ForRewrite(bytes, shown(cardPath(stem)))})
    } catch (error) {
      context.debug.log({lvl: 'warn', tag: REASON, msg: `left ${shown(cardPath(stem))} alone: ${(error as Error).message}`, data: {from: stem, to: stem, path: shown(cardPath(stem))}})
    }
  }
  return cards.sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0))
}

/** `team/.archive/<id>.md`, or `<id>-2.md`, `-3`… when an earlier archive of another text holds the name. */
async function archivePathFor(context: DaemonContext, id: string, text: string): Promise<string> {
  for (let n = 1; ; n++) {
    const relative = `${ARCHIVE_DIR}/${n === 1 ? id : `${id}-${n}`}.md`
    // A name held by a link counts as taken (it is not read, and not written over).
    const existing = await readProjectText(context, relative).catch(() => undefined)
    if (existing === null || existing === text) return relative
  }
}

/**
 * Points every conversation of `from` at `to`: `.mesh/.runtime/chat/convs/*.json`
 * whose `member` is `from`. Runtime files, so written atomically, not through
 * the project writer (no snapshot, never committed). Other fields and the
 * file's indentation are kept.
 */
async function repointConversations(context: DaemonContext, from: string, to: string): Promise<RosterMigrationResult['repointed']> {
  const entries = await listProjectFolder(context, CONVS_DIR).catch(() => [])
  const repointed: RosterMigrationResult['repointed'] = []
  for (const name of entries.filter((entry) => entry.isFile()).map((entry) => entry.name).filter((file) => file.endsWith('.json') && !file.startsWith('.')).sort()) {
    const text = await readProjectText(context, `${CONVS_DIR}/${name}`).catch(() => null)
    let state: unknown
    try {
      state = text === null ? null : JSON.parse(text)
    } catch {
      continue
    }
    if (!state || typeof state !== 'object' || Array.isArray(state) || (state as {member?: unknown}).member !== from) continue
    const record = state as Record<string, unknown>
    record.member = to
    const indent = /^\{\r?\n([ \t]+)"/.exec(text!)?.[1]
    await writeContainedFile(context.meshPath(), `${CONVS_DIR}/${name}`, JSON.stringify(record, null, indent) + (text!.endsWith('\n') ? '\n' : ''))
    const conv = typeof record.conv === 'string' ? record.conv : name.slice(0, -5)
    repointed.push({conv, from, to})
    context.debug.log({lvl: 'info', tag: REASON, conv, msg: `conversation ${conv} of ${from} now belongs to ${to}`, data: {from, to, path: shown(`${CONVS_DIR}/${name}`)}})
  }
  return repointed
}

async function carryOut(context: DaemonContext, step: RosterStep, result: RosterMigrationResult): Promise<void> {
  switch (step.action) {
    case 'migrate': {
      const path = cardPath(step.stem)
      await context.writer.write(path, step.text, {reason: REASON})
      const what = [step.dropped.length > 0 ? `dropped ${step.dropped.join(', ')}` : '', step.filled.length > 0 ? `filled ${step.filled.join(', ')}` : ''].filter(Boolean).join('; ')
      context.debug.log({lvl: 'info', tag: REASON, msg: `migrated ${shown(path)} in place (${what})`, data: {from: step.stem, to: step.stem, path: shown(path), dropped: step.dropped, filled: step.filled}})
      context.events.publish(TEAM_EVENTS.updated, {id: step.stem} satisfies TeamEventData)
      return
    }
    case 'rename': {
      // Target first, conversations next, source last: a start cut short leaves a card to finish from, never none.
      const path = cardPath(step.to)
      await context.writer.write(path, step.text, {reason: REASON})
      result.repointed.push(...(await repointConversations(context, step.from, step.to)))
      await context.writer.remove(cardPath(step.from), {reason: REASON})
      await memberTokens(context).revoke(step.from)
      context.debug.log({lvl: 'info', tag: REASON, msg: `renamed the seeded coordinator ${shown(cardPath(step.from))} to ${shown(path)} (v37)`, data: {from: step.from, to: step.to, path: shown(path)}})
      context.events.publish(TEAM_EVENTS.deleted, {id: step.from} satisfies TeamEventData)
      context.events.publish(TEAM_EVENTS.created, {id: step.to} satisfies TeamEventData)
      return
    }
    case 'archive': {
      const path = await archivePathFor(context, step.from, step.text)
      await context.writer.write(path, step.text, {reason: REASON})
      if (step.repointTo) result.repointed.push(...(await repointConversations(context, step.from, step.repointTo)))
      await context.writer.remove(cardPath(step.from), {reason: REASON})
      await memberTokens(context).revoke(step.from)
      context.debug.log({lvl: 'info', tag: ARCHIVE_TAG, msg: `archived the seeded card ${shown(cardPath(step.from))} to ${shown(path)} (v37)`, data: {from: step.from, to: step.repointTo, path: shown(path)}})
      context.events.publish(TEAM_EVENTS.deleted, {id: step.from} satisfies TeamEventData)
      return
    }
    case 'skip':
      context.debug.log({lvl: 'warn', tag: REASON, msg: `left ${shown(cardPath(step.stem))} alone: ${step.reason}`, data: {from: step.stem, to: step.stem, path: shown(cardPath(step.stem))}})
  }
}

/**
 * Brings `.mesh/team/` to v38 (run by the team area's start). Never throws:
 * a step that fails is a `warn` line and the others still run, so a bad card
 * never keeps the daemon from serving.
 */
export async function migrateRoster(context: DaemonContext): Promise<RosterMigrationResult> {
  const result: RosterMigrationResult = {steps: [], repointed: []}
  try {
    result.steps = planRosterMigration(await readRoster(context))
  } catch (error) {
    context.debug.log({lvl: 'warn', tag: REASON, msg: `the roster could not be read: ${(error as Error).message}`})
    return result
  }
  for (const step of result.steps) {
    try {
      await carryOut(context, step, result)
    } catch (error) {
      const id = step.action === 'migrate' || step.action === 'skip' ? step.stem : step.from
      context.debug.log({lvl: 'warn', tag: REASON, msg: `could not ${step.action} ${shown(cardPath(id))}: ${(error as Error).message}`, data: {from: id, path: shown(cardPath(id))}})
    }
  }
  return result
}
