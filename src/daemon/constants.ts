/**
 * The local daemon's numbers and names, in one place.
 * spec: project standard and daemon (Limits, Logs and debug stream,
 * Endpoints); DECISIONS "Project standard and daemon". docs/daemon.md explains them.
 */

import {ROADMAP_STATE_JS, ROADMAP_STATE_JSON} from '../standard/roadmap/constants.js'

export {DAEMON_FILE, DAEMON_HOST, DAEMON_PORT_FIRST, DAEMON_PORT_LAST, DEBUG_FILE, PORTAL_TOKEN_FILE, PROJECT_HEADER, RUNTIME_DIR} from '../protocol/daemon.js'

/** spec Logs and debug stream: retention 30 minutes or 5 MB, whichever first; msg ≤ 4000 chars. */
export const DEBUG_RETENTION_MS = 30 * 60 * 1000
export const DEBUG_RETENTION_BYTES = 5 * 1024 * 1024
export const DEBUG_MSG_MAX_CHARS = 4000
/** spec: `data` keys masked in the debug stream. */
export const DEBUG_MASKED_KEYS = ['token', 'authorization', 'bearer', 'api_key', 'apikey', 'secret', 'password'] as const
/** spec: values starting with the bearer prefix and longer than 24 characters are redacted. */
export const BEARER_PREFIX = 'Bearer '
export const BEARER_REDACT_OVER = 24
/** spec `/debug/tail`: `last` in seconds, default 300. */
export const DEBUG_TAIL_DEFAULT_SECS = 300
/** Events one `POST /debug/log` may carry (our choice: a batch from an IDE, not a flood). */
export const DEBUG_POST_MAX_EVENTS = 500

/** spec Limits: the storage report is cached 5 s. */
export const STORAGE_CACHE_MS = 5_000
/** spec Limits: snapshots kept 7 days by default (1–365), uploads 30 days. */
export const SNAPSHOT_RETENTION_DAYS = 7
export const UPLOAD_RETENTION_DAYS = 30
/** How often the storage area prunes snapshots and uploads (our choice; also once at start). */
export const STORAGE_PRUNE_INTERVAL_MS = 60 * 60 * 1000

/** spec `/workflows/<id>/runs`: the latest 50 run logs. */
export const RUN_LOGS_LIMIT = 50

/** Request bodies of the daemon's write routes (our choice; the largest is a debug batch). */
export const MAX_BODY_BYTES = 1024 * 1024

/** The features the daemon announces on /health (spec: `features.debug.stream.v1`). */
export const FEATURES = ['features.debug.stream.v1'] as const

/** `implementation` on /health: which daemon this is. */
export const IMPLEMENTATION = 'mesh-ts'

/**
 * Files the daemon generates (spec Folder layout: `state.json`, `roadmap/state.json, state.js` — "generated,
 * never hand-edit"; `architect/` — "cached visualizer"), relative to `.mesh/`. All deny-listed.
 */
export const DAEMON_STATE_FILE = 'state.json'
export const ROADMAP_PAGE_FILE = 'architect/roadmap.html'
export const GENERATED_FILES: readonly string[] = [ROADMAP_STATE_JSON, ROADMAP_STATE_JS, DAEMON_STATE_FILE, ROADMAP_PAGE_FILE]

/**
 * The IDE's login (docs/ide.md, Security; issue 22): a login code `mesh open` gets with the portal
 * token is good once, for 60 s; at most 16 wait at a time (a 17th drops the oldest). A browser keeps
 * a session for the daemon's run; at most 32 live at once (the oldest is ended first).
 */
export const LOGIN_CODE_TTL_MS = 60_000
export const MAX_LOGIN_CODES = 16
export const MAX_BROWSER_SESSIONS = 32
/** The session cookie is `mesh_ide_<port>`: cookies are not kept apart by port, two daemons' must not overwrite each other. */
export const SESSION_COOKIE_PREFIX = 'mesh_ide_'
/** The header (and, on the /events upgrade, the `csrf` query parameter) that carries a session's CSRF token. */
export const CSRF_HEADER = 'x-mesh-csrf'
export const CSRF_QUERY = 'csrf'
