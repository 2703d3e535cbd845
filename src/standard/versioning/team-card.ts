import {TEAM_RETIRED_FIELDS} from '../constants.js'
import {editFrontmatter, parseFrontmatter} from '../frontmatter.js'

export interface CardMigration {
  /** The new file text (equal to the input when nothing changed). */
  text: string
  changed: boolean
  /** Retired keys that were removed. */
  dropped: string[]
  /** Authored keys filled from retired ones or the file name. */
  filled: string[]
}

/**
 * Migrates one team card to the v36–v38 shape: the retired fields are
 * dropped (spec: "accepted on input, dropped on write"); when `title` is
 * absent the retired `name` becomes the title, and a missing `id` is the file
 * stem (spec: id equals the filename stem), so dropping never loses identity.
 * Only the frontmatter is rewritten: the body — the operator's prose — stays
 * byte-identical, and so do untouched keys, their order and comments.
 */
export function migrateTeamCard(text: string, stem: string): CardMigration {
  const {data} = parseFrontmatter(text)
  const record = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
  const dropped = TEAM_RETIRED_FIELDS.filter((field) => field in record)
  const filled: string[] = []
  if (record.title === undefined && typeof record.name === 'string' && record.name.trim() !== '') filled.push('title')
  if (record.id === undefined) filled.push('id')
  if (dropped.length === 0 && filled.length === 0) return {text, changed: false, dropped: [], filled: []}
  const next = editFrontmatter(text, (document) => {
    if (record.id === undefined) document.set('id', stem)
    if (filled.includes('title')) document.set('title', (record.name as string).trim())
    for (const field of dropped) document.delete(field)
  })
  return {text: next, changed: next !== text, dropped: [...dropped], filled}
}
