/**
 * What the watcher never reports: daemon ephemera and secrets, kept copies,
 * editors' scratch files and the writers' own temp files (docs/daemon-api.md,
 * Events from files).
 */
import {IGNORED_DIR_NAMES, IGNORED_TOP_DIRS} from './constants.js'

/**
 * Scratch names: `.<name>.<pid>.<hex>.tmp` (src/lib/atomic-write.ts) and
 * `.<name>.<pid>.<hex>.new` (src/lib/exclusive-create.ts), any `.*.tmp`,
 * Emacs `foo~` and `.#foo`, Vim swap files and the `4913` file Vim writes to
 * probe a folder, JetBrains `___jb_tmp___`/`___jb_old___`.
 */
const SCRATCH_FILE = [/^\..*\.(tmp|new)$/, /~$/, /^\.#/, /^\..+\.sw[a-p]$/, /^4913$/, /___jb_(tmp|old)___$/]
/** Operating-system metadata. */
const OS_JUNK = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini'])

/**
 * Whether a path relative to `.mesh/` (`/`-separated; '' is `.mesh/` itself)
 * is ignored. Used for folders too, so an ignored folder is never even walked.
 */
export function isIgnoredPath(relativePath: string): boolean {
  if (relativePath === '') return false
  const parts = relativePath.split('/')
  if ((IGNORED_TOP_DIRS as readonly string[]).includes(parts[0])) return true
  if (parts.some((part) => (IGNORED_DIR_NAMES as readonly string[]).includes(part))) return true
  const name = parts[parts.length - 1]
  return OS_JUNK.has(name) || SCRATCH_FILE.some((pattern) => pattern.test(name))
}
