/**
 * The chat area's numbers and names (docs/daemon.md, Chat). The spec fixes
 * the delegation defaults (DECISIONS: Delegation — depth 4, fan-out 5); the
 * rest are our choices, each configurable on `mesh serve`.
 */
import {randomBytes} from 'node:crypto'

/** Client CLI processes running at once (`mesh serve --max-turns`, env MESH_MAX_TURNS). */
export const DEFAULT_MAX_TURNS = 8
/** Turns lined up behind them; one more is 429 `at_capacity` (`--max-waiting`, MESH_MAX_WAITING). */
export const DEFAULT_MAX_WAITING = 256
/** A turn still running after this is killed and recorded as failed (`--turn-timeout` seconds, MESH_TURN_TIMEOUT). */
export const DEFAULT_TURN_TIMEOUT_MS = 15 * 60 * 1000
/** After SIGTERM, a client that has not exited by then gets SIGKILL. */
export const KILL_GRACE_MS = 2_000
/** DECISIONS: Delegation. */
export const DEFAULT_DELEGATION_DEPTH = 4
export const DEFAULT_DELEGATION_FAN_OUT = 5

/** One output line is cut here (a client printing one endless line must not hold the daemon's memory). */
export const MAX_LINE_CHARS = 16 * 1024
/** A turn whose text and tool lines pass this is killed (`output_too_large`). */
export const MAX_TURN_OUTPUT_BYTES = 1024 * 1024
/**
 * A structured stream (issue 19) repeats its text (deltas, whole messages,
 * the result) and carries every tool's full output: its raw stdout may pass
 * MAX_TURN_OUTPUT_BYTES while what the daemon keeps does not. Its raw bytes
 * are bounded here instead, and one JSON line at MAX_STREAM_LINE_BYTES (a
 * longer one is skipped, said in the debug stream).
 */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024
export const MAX_STREAM_LINE_BYTES = 4 * 1024 * 1024
/** `chat.tool`: a tool's input in one line, and its output, are cut here. */
export const MAX_TOOL_SUMMARY_CHARS = 200
export const MAX_TOOL_OUTPUT_CHARS = 2_000
/** The end of stderr kept to explain a failed turn. */
export const STDERR_TAIL_BYTES = 4 * 1024
/** Finished turns remembered for `GET /chat/turns/<id>` (the timeline keeps them all). */
export const RECENT_TURNS_KEPT = 2_000
/** Ask requests remembered for polling, and how long after they finish. */
export const ASK_REQUESTS_KEPT = 10_000
export const ASK_RESULT_TTL_MS = 24 * 60 * 60 * 1000

/** spec: conv ids are ours to choose; they name files (`queues/<conv>.json`), so a safe file stem. */
export const CONV_PATTERN = /^[a-z0-9][a-z0-9._-]{0,79}$/
/** Every ask conversation is `ask-<member>-<session>`: a member-token caller may steer it, so its turns are sandboxed (sandbox.ts). */
export const ASK_CONV_PREFIX = 'ask-'
/** An ask's `session`: the caller's key for continuing one conversation. */
export const ASK_SESSION_PATTERN = /^[A-Za-z0-9._-]{1,40}$/
/** The member a chat goes to when none is named: the coordinating architect (DECISIONS: Base team). */
export const COORDINATOR = 'architect'

/** Where the chat area keeps its state under `.mesh/.runtime/` (never committed). */
export const CHAT_RUNTIME_DIR = 'chat'
/** Published (not written to the timeline) when a conversation goes idle: its final is out, nothing runs or waits in it, and it is not coordinating. */
export const CHAT_IDLE_EVENT = 'chat.idle'
/** Timeline lines the daemon writes itself carry this `src`, so the file watcher does not announce them twice. */
export const DAEMON_TIMELINE_SRC = 'daemon'

export interface ChatLimits {
  maxTurns: number
  maxWaiting: number
  turnTimeoutMs: number
  delegationDepth: number
  delegationFanOut: number
  /** The most the clients may report spending per UTC day, in USD (`--max-cost-per-day`); null: no limit. */
  maxCostPerDay: number | null
}

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  maxTurns: DEFAULT_MAX_TURNS,
  maxWaiting: DEFAULT_MAX_WAITING,
  turnTimeoutMs: DEFAULT_TURN_TIMEOUT_MS,
  delegationDepth: DEFAULT_DELEGATION_DEPTH,
  delegationFanOut: DEFAULT_DELEGATION_FAN_OUT,
  maxCostPerDay: null,
}

/** `c-3f9a…`: a prefix and 48 random bits in hex, enough to never collide within one project. */
export const newId = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`

/** A script of the script client is a few replies; anything larger is refused (docs/daemon.md, The script client). */
export const MAX_SCRIPT_BYTES = 1024 * 1024
/** /health reads the clients files (and asks git whether one is tracked) at most this often. */
export const CLIENT_WARNINGS_CACHE_MS = 2_000

/** The base team's deployer (spec v38): its done reports are deploys (`deploy.completed`, agent-reports.ts), and its prompt shows a deploy report. */
export const DEPLOYER = 'deployer'
