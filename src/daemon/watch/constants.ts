/**
 * The file watcher's numbers and names, in one place (docs/daemon.md, File
 * watcher; docs/daemon-api.md, Events from files).
 */
import {RESTORE_REASON} from '../snapshots/restore.js'
import {RESOURCES_REASON} from '../authoring/constants.js'

/**
 * A path's events settle this long after its last one before anything is
 * published (trailing debounce). Longer than chokidar's own 50 ms throttle of
 * repeated `change` events, so the file is read after the write it swallowed.
 */
export const WATCH_DEBOUNCE_MS = 60
/** A path written without pause is still reported at least this often. */
export const WATCH_MAX_WAIT_MS = 300
/**
 * chokidar `atomic`: an unlink followed by an add of the same path within this
 * window is one `change` (an editor's rename over the file).
 */
export const WATCH_ATOMIC_MS = 100
/** `start()` waits this long for the first scan of `.mesh/`, then goes on and says so. */
export const WATCH_READY_TIMEOUT_MS = 10_000

/** Folders (first segment under `.mesh/`) never watched: daemon ephemera, kept copies, secrets, bulky local files. */
export const IGNORED_TOP_DIRS = ['.runtime', 'snapshots', 'credentials', 'uploads', 'architect'] as const
/** Folder names never watched at any depth. */
export const IGNORED_DIR_NAMES = ['.git', 'node_modules'] as const

/**
 * Reasons of project-writer writes the watcher reports anyway. Every other write
 * is announced by the area that made it (`links.updated` by 'daemon',
 * `task.updated` with from/to), so its echo is skipped; a restore announces
 * only `snapshot.restored`, so the file's own event comes from the watcher;
 * `mesh render --resources` through the daemon has no event of its own
 * either (RESOURCES.md is a `file.changed`, as a hand edit).
 */
export const ECHOED_REASONS: readonly string[] = [RESTORE_REASON, RESOURCES_REASON]
/** A remembered own write (the daemon's, through the project writer) is forgotten after this long if its echo never came. */
export const OWN_WRITE_TTL_MS = 30_000

/** Bytes of a timeline file read per pass (a bigger append is read in several passes). */
export const TIMELINE_READ_MAX_BYTES = 1024 * 1024
/** Parsed timeline lines per `timeline.appended` message (more are split over several). */
export const TIMELINE_EVENTS_PER_MESSAGE = 100
