/** Standard versioning (spec "Versioning"): where the numbers live and how long we wait for them. */

/** `.mesh/STANDARD_VERSION`: the installed integer. */
export const STANDARD_VERSION_FILE = 'STANDARD_VERSION'
/** Env var naming the canonical version URL (after `--url`, before mesh.json). */
export const STANDARD_URL_ENV = 'MESH_STANDARD_URL'
/** `{site}/standard/version` and `{site}/standard/CHANGELOG.md` (spec item 5, Versioning 1). */
export const VERSION_PATH = 'standard/version'
export const CHANGELOG_PATH = 'standard/CHANGELOG.md'
/** A status check must not hang a terminal: short, and adjustable with --timeout. */
export const DEFAULT_FETCH_TIMEOUT_MS = 3000
/** Team cards live here; `.archive/` below it is history and not migrated. */
export const TEAM_DIR = 'team'
