/**
 * What a pre-v38 roster needs to become a v38 one (spec Versioning v36–v38;
 * DECISIONS: Base team, Team cards), decided from the cards' text alone so it
 * is the same plan wherever it runs. The daemon carries it out at start
 * (src/daemon/team/roster-migration.ts; docs/daemon.md, Roster migration).
 *
 * - Every card with retired fields is migrated in place (migrateTeamCard).
 * - v37 "rename, archive other seeded cards": a card an older `mesh init`
 *   seeded carries one of the retired marks `required: true`, `kind: seeded`
 *   or `agent_type: seeded`. The seeded coordinator becomes `architect`;
 *   every other seeded card whose id is not a base-team id is archived.
 *   A card without those marks is the operator's: never renamed or archived.
 */
import {editFrontmatter, parseFrontmatter, splitFrontmatter, describeReadError} from '../frontmatter.js'
import {BASE_TEAM} from '../scaffold/templates/team.js'
import {migrateTeamCard} from './team-card.js'

/** The id the seeded coordinator is renamed to (spec v37/v38: the coordinating architect agent). */
export const COORDINATOR_ID = 'architect'
/** DECISIONS: Base team — ids kept where they are even when seeded. */
export const BASE_TEAM_IDS: readonly string[] = BASE_TEAM.map((member) => member.id)
/** Values of the retired `kind` / `agent_type` that mark a seeded card. */
export const SEEDED_MARKS: readonly string[] = ['seeded', 'seed']
/**
 * Names older seeds gave their coordinator, as a file stem or as the retired
 * `kind` / `agent_type`; a stem earlier in the list is preferred when several
 * seeded coordinators compete for the rename.
 */
export const COORDINATOR_NAMES: readonly string[] = ['architect', 'lead', 'coordinator', 'planner', 'orchestrator']

export interface RosterCard {
  /** The file name without `.md` (a member id). */
  stem: string
  text: string
}

export type RosterStep =
  /** Rewrite `team/<stem>.md` with `text`. */
  | {action: 'migrate'; stem: string; text: string; dropped: string[]; filled: string[]}
  /** Write `team/<to>.md` with `text`, then remove `team/<from>.md`. */
  | {action: 'rename'; from: string; to: string; text: string}
  /** Write `text` under `team/.archive/`, then remove `team/<from>.md`; conversations of `from` go to `repointTo` (null: no coordinator left to take them). */
  | {action: 'archive'; from: string; text: string; repointTo: string | null}
  /** Left alone: the card cannot be read. */
  | {action: 'skip'; stem: string; reason: string}

interface ReadCard {
  stem: string
  text: string
  record: Record<string, unknown>
}

const lower = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '')

/** The retired marks of a card an older `mesh init` seeded (docs/daemon.md, Roster migration). */
export function isSeeded(record: Record<string, unknown>): boolean {
  return record.required === true || lower(record.required) === 'true' || SEEDED_MARKS.includes(lower(record.kind)) || SEEDED_MARKS.includes(lower(record.agent_type))
}

/** A seeded card that coordinated the team: its stem, `kind` or `agent_type` is one of COORDINATOR_NAMES. */
export function isSeededCoordinator(stem: string, record: Record<string, unknown>): boolean {
  return isSeeded(record) && [stem, lower(record.kind), lower(record.agent_type)].some((name) => COORDINATOR_NAMES.includes(name))
}

const rank = (stem: string) => {
  const index = COORDINATOR_NAMES.indexOf(stem)
  return index === -1 ? COORDINATOR_NAMES.length : index
}

/**
 * The steps that bring `cards` (every `team/<id>.md` of the roster) to v38;
 * an empty list when the roster needs nothing. Renames come first, then
 * archives, then in-place migrations. Bodies are never touched.
 */
export function planRosterMigration(cards: readonly RosterCard[]): RosterStep[] {
  const skips: RosterStep[] = []
  const readable: ReadCard[] = []
  for (const card of cards) {
    const split = splitFrontmatter(card.text)
    if (!split.hasFrontmatter || split.unterminated) {
      // A card without a complete frontmatter has no retired field to drop: nothing to do, nothing to say.
      continue
    }
    try {
      const {data} = parseFrontmatter(card.text)
      const record = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
      readable.push({stem: card.stem, text: card.text, record})
    } catch (error) {
      skips.push({action: 'skip', stem: card.stem, reason: `the frontmatter is not valid YAML: ${describeReadError(error, 2)}`})
    }
  }

  const stems = new Set(cards.map((card) => card.stem))
  const coordinators = readable
    .filter((card) => card.stem !== COORDINATOR_ID && isSeededCoordinator(card.stem, card.record))
    .sort((a, b) => rank(a.stem) - rank(b.stem) || (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0))
  // Only when no card is already called architect: an existing one (seeded or the operator's) is never replaced.
  const renamed = !stems.has(COORDINATOR_ID) ? coordinators[0] : undefined
  const coordinatorAfter = stems.has(COORDINATOR_ID) || renamed !== undefined

  const renames: RosterStep[] = []
  const archives: RosterStep[] = []
  const migrations: RosterStep[] = []
  for (const card of readable) {
    if (card === renamed) {
      const migrated = migrateTeamCard(card.text, card.stem).text
      const text = editFrontmatter(migrated, (document) => {
        document.set('id', COORDINATOR_ID)
        if (document.get('title') === undefined) document.set('title', 'Architect')
      })
      renames.push({action: 'rename', from: card.stem, to: COORDINATOR_ID, text})
    } else if (isSeeded(card.record) && !BASE_TEAM_IDS.includes(card.stem)) {
      archives.push({action: 'archive', from: card.stem, text: migrateTeamCard(card.text, card.stem).text, repointTo: coordinatorAfter ? COORDINATOR_ID : null})
    } else {
      const result = migrateTeamCard(card.text, card.stem)
      if (result.changed) migrations.push({action: 'migrate', stem: card.stem, text: result.text, dropped: result.dropped, filled: result.filled})
    }
  }
  return [...renames, ...archives, ...migrations, ...skips]
}
