import {listContainedFolder, readContainedFile} from '../../lib/contained-files.js'
import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {conflict} from '../../lib/errors.js'
import {describeReadError, splitFrontmatter} from '../frontmatter.js'
import {decodeUtf8ForRewrite} from '../project/utf8.js'
import {meshPath} from '../project/project-root.js'
import {BUILTIN_CHANGELOG, BUILTIN_LATEST, entriesBetween, type ChangelogEntry} from './changelog.js'
import {STANDARD_VERSION_FILE, TEAM_DIR} from './constants.js'
import {readInstalledVersion} from './installed.js'
import {migrateTeamCard} from './team-card.js'

/** Versions whose changes `migrate` applies to files itself (team cards v36–v38). */
export const AUTOMATIC_VERSIONS = [36, 37, 38] as const

export interface MigratedFile {
  path: string
  dropped: string[]
  filled: string[]
}

export interface MigrationReport {
  from: number | null
  to: number
  dry_run: boolean
  /** Files rewritten (or that would be, under dry-run). */
  changed: MigratedFile[]
  /** Team cards that could not be read and were left alone. */
  skipped: Array<{path: string; reason: string}>
  /** Whether STANDARD_VERSION was (or would be) raised. */
  bumped: boolean
  /** Entries in between that no built-in migration applies: read them and apply by hand. */
  manual: ChangelogEntry[]
}

/**
 * Brings a project to the newest version this mesh knows: migrates every
 * team card (`.mesh/team/*.md`, not `.archive/`), then raises
 * `.mesh/STANDARD_VERSION`. `dryRun` reports the same and writes nothing.
 * A project newer than this mesh is refused, changing nothing. `write`
 * replaces the atomic write (the daemon passes its project writer).
 */
export async function migrateStandard(root: string, options: {dryRun?: boolean; write?: (absolutePath: string, text: string) => Promise<void>} = {}): Promise<MigrationReport> {
  const write = options.write ?? writeFileAtomic
  const dryRun = options.dryRun ?? false
  const from = await readInstalledVersion(root)
  if (from !== null && from > BUILTIN_LATEST) {
    throw conflict('standard_newer', `This project is on standard v${from}, newer than the v${BUILTIN_LATEST} this mesh knows; update mesh first. Nothing was changed.`)
  }
  const teamDir = meshPath(root, TEAM_DIR)
  // Cards are read as regular files in a real team/ folder, never through a link (issue 18): a linked
  // card would otherwise be rewritten as a regular file holding its target's text.
  const names = (await listContainedFolder(meshPath(root), TEAM_DIR).catch(() => [])).map((entry) => entry.name).filter((name) => name.endsWith('.md') && !name.startsWith('.')).sort()
  const changed: MigratedFile[] = []
  const skipped: MigrationReport['skipped'] = []
  const writes: Array<{path: string; text: string}> = []
  for (const name of names) {
    const path = join(teamDir, name)
    const relative = `.mesh/${TEAM_DIR}/${name}`
    let text: string
    try {
      const bytes = await readContainedFile(meshPath(root), `${TEAM_DIR}/${name}`)
      if (bytes === null) continue
      text = decodeUtf8ForRewrite(bytes, relative)
    } catch (error) {
      skipped.push({path: relative, reason: (error as Error).message})
      continue
    }
    const split = splitFrontmatter(text)
    if (!split.hasFrontmatter || split.unterminated) {
      skipped.push({path: relative, reason: 'no complete --- frontmatter block'})
      continue
    }
    let result
    try {
      result = migrateTeamCard(text, name.slice(0, -3))
    } catch (error) {
      skipped.push({path: relative, reason: describeReadError(error, 2)})
      continue
    }
    if (!result.changed) continue
    changed.push({path: relative, dropped: result.dropped, filled: result.filled})
    writes.push({path, text: result.text})
  }
  // Plan first, write after: a card that cannot be read never leaves others half-migrated by an exception.
  const bumped = from === null || from < BUILTIN_LATEST
  if (!dryRun) {
    for (const card of writes) await write(card.path, card.text)
    if (bumped) await write(meshPath(root, STANDARD_VERSION_FILE), `${BUILTIN_LATEST}\n`)
  }
  const manual = entriesBetween(BUILTIN_CHANGELOG, from ?? 0, BUILTIN_LATEST).filter(
    (entry) => !(AUTOMATIC_VERSIONS as readonly number[]).includes(entry.version),
  )
  return {from, to: BUILTIN_LATEST, dry_run: dryRun, changed, skipped, bumped, manual}
}
