/**
 * The generated state's names and numbers (spec: Folder layout — `state.json`
 * and `roadmap/state.json, state.js` are generated, `architect/` is the
 * cached visualizer; docs/daemon.md, Generated state).
 */
export {DAEMON_STATE_FILE, GENERATED_FILES, ROADMAP_PAGE_FILE} from '../constants.js'

/** Bumped when the shape of `.mesh/state.json` changes incompatibly (schemas/daemon-state.schema.json). */
export const DAEMON_STATE_FORMAT = 1

/**
 * A rebuild waits this long after the last change (trailing debounce): a
 * `git pull` or a turn that writes several task files is one rebuild. Longer
 * than the watcher's own settle (60 ms), so the files of one burst land in one.
 */
export const STATE_REBUILD_DEBOUNCE_MS = 100
/** Changes that never pause (a script rewriting a file in a loop) still get a rebuild at least this often. */
export const STATE_REBUILD_MAX_WAIT_MS = 1_000
/** Causes named in one `state.rebuilt` event at most (the count is always given). */
export const STATE_CAUSES_SHOWN = 50

/** Published after every rebuild, written or not. */
export const STATE_REBUILT_EVENT = 'state.rebuilt'
/** The project writer's reason for the generated files (never snapshotted: see project-writer.ts). */
export const STATE_WRITE_REASON = 'state.rebuild'
/** Debug-stream tag of the rebuilds. */
export const STATE_TAG = 'state'
