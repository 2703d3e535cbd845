/**
 * The standard's site (spec "project standard and daemon", what the service
 * does 4–5): `{site}/standard/version`, `{site}/standard/CHANGELOG.md` and
 * the canonical resources page that `.mesh/public/RESOURCES.md` mirrors above
 * its marker. The registry serves them (`mesh serve registry`); the texts are
 * either the ones this build ships or the operator's files (`--site-dir`).
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {invalid} from '../lib/errors.js'
import {CURRENT_STANDARD_VERSION, MARKERS} from './constants.js'
import {networkResourceLines} from './scaffold/templates/instructions.js'
import {BUILTIN_CHANGELOG, parseChangelog, type ChangelogEntry} from './versioning/changelog.js'
import {parseCanonicalVersion} from './versioning/remote.js'

/** The three texts of the standard's site. */
export interface StandardSite {
  /** The canonical version: what `/standard/version` answers (one integer). */
  version: number
  /** `/standard/CHANGELOG.md`: entries headed `## v<N>`. */
  changelog: string
  /** `/resources`: markdown, without the resources end marker. */
  resources: string
  /** Where the texts came from: `shipped`, or the `--site-dir` folder. */
  source: 'shipped' | {dir: string}
}

/** The files of a `--site-dir` folder, relative to it (docs/registry.md "The standard's site"). */
export const SITE_DIR_FILES = {version: 'standard/version', changelog: 'standard/CHANGELOG.md', resources: 'resources.md'} as const

/** A changelog in the format the clients parse (parseChangelog): newest entry first. */
export function renderChangelog(entries: readonly ChangelogEntry[]): string {
  const sorted = [...entries].sort((a, b) => b.version - a.version)
  return `# Changelog of the mesh project standard\n\n${sorted.map((entry) => `## v${entry.version}\n\n${entry.text}\n`).join('\n')}`
}

/** The canonical resources page of a hub at `site` (no trailing slash): the shipped template's network lines. */
export function canonicalResources(site: string): string {
  const hub = site.replace(/\/+$/, '')
  return `# Network resources\n\n${networkResourceLines(hub, `${hub}/docs`)}`
}

/** The site this build of mesh ships, for a hub at `site`: version, built-in changelog, resources. */
export function shippedStandardSite(site: string): StandardSite {
  return {version: CURRENT_STANDARD_VERSION, changelog: renderChangelog(BUILTIN_CHANGELOG), resources: canonicalResources(site), source: 'shipped'}
}

async function readSiteFile(dir: string, relative: string): Promise<string> {
  const path = join(dir, relative)
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'is missing' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code ?? (error as Error).message})`
    throw invalid('site_file_unreadable', `--site-dir: ${path} ${why}; the folder needs ${Object.values(SITE_DIR_FILES).join(', ')}.`, {field: 'site-dir'})
  }
}

/**
 * Reads and checks the operator's site folder: all three files must be there
 * and readable, the version one integer, the changelog at least one `## v<N>`
 * entry, the resources free of the end marker (which would move the mirror's
 * boundary, see render/resources.ts). Throws a MeshError naming the file.
 */
export async function loadStandardSiteDir(dir: string): Promise<StandardSite> {
  const [versionText, changelog, resources] = await Promise.all([
    readSiteFile(dir, SITE_DIR_FILES.version),
    readSiteFile(dir, SITE_DIR_FILES.changelog),
    readSiteFile(dir, SITE_DIR_FILES.resources),
  ])
  const version = parseCanonicalVersion(versionText)
  if (version === undefined) {
    throw invalid('site_version_invalid', `--site-dir: ${join(dir, SITE_DIR_FILES.version)} must hold one integer (e.g. 38), got ${JSON.stringify(versionText.slice(0, 40))}.`, {field: 'site-dir'})
  }
  if (parseChangelog(changelog).length === 0) {
    throw invalid('site_changelog_invalid', `--site-dir: ${join(dir, SITE_DIR_FILES.changelog)} has no entry headed "## v<N>".`, {field: 'site-dir'})
  }
  if (resources.includes(MARKERS.resourcesEnd)) {
    throw invalid('site_resources_invalid', `--site-dir: ${join(dir, SITE_DIR_FILES.resources)} must not contain ${MARKERS.resourcesEnd}; that marker closes the mirrored part of a project's RESOURCES.md.`, {field: 'site-dir'})
  }
  return {version, changelog, resources, source: {dir}}
}
