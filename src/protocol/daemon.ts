/**
 * Where the local daemon and the commands that talk to it meet
 * (DECISIONS: Daemon runtime, Daemon auth; spec Limits). Paths are relative
 * to `.mesh/`. Nothing here imports anything.
 */

/** The project folder inside a repository (spec: Folder layout); the paths below are relative to it. */
export const MESH_DIR = '.mesh'

/** spec Limits: default port 5570; the first free port in 5570–5589 is used. */
export const DAEMON_PORT_FIRST = 5570
export const DAEMON_PORT_LAST = 5589

export const RUNTIME_DIR = '.runtime'
/** `{port, pid, started_at, version}` while a daemon serves the project. */
export const DAEMON_FILE = '.runtime/daemon.json'
export const DEBUG_FILE = '.runtime/debug.jsonl'
/** The portal token, mode 0600. */
export const PORTAL_TOKEN_FILE = 'credentials/portal-token'

/** The header that names the project a request means (its cluster.yaml id). */
export const PROJECT_HEADER = 'x-mesh-project'
