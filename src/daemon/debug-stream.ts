/**
 * The debug stream: `.mesh/.runtime/debug.jsonl`, one event a line with the
 * spec's fields (ts with ms, src, lvl, tag, msg ≤ 4000, conv?, agent_id?,
 * data?), kept 30 minutes or 5 MB, whichever first. The daemon is its only
 * writer: events are appended as they come and held in memory for
 * `/debug/tail`; the file is rewritten (atomically) without the expired head
 * when it outgrows the budget. docs/daemon.md, Debug stream.
 */
import {dirname} from 'node:path'
import {appendContainedFile, ensureContainedFolder, readContainedText, writeContainedFile} from '../lib/contained-files.js'
import {DEBUG_MSG_MAX_CHARS, DEBUG_RETENTION_BYTES, DEBUG_RETENTION_MS} from './constants.js'
import {redactData} from './debug-redact.js'

export const DEBUG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type DebugLevel = (typeof DEBUG_LEVELS)[number]
export const DEBUG_SOURCES = ['daemon', 'Architect IDE', 'agent'] as const
export type DebugSource = (typeof DEBUG_SOURCES)[number]

export interface DebugEvent {
  ts: string
  src: DebugSource
  lvl: DebugLevel
  tag: string
  msg: string
  conv?: string
  agent_id?: string
  data?: Record<string, unknown>
}

export type DebugInput = Omit<DebugEvent, 'ts' | 'src'> & {ts?: string; src?: DebugSource}

export interface TailQuery {
  /** Seconds back from now. */
  lastSecs: number
  /** Only events after this cursor (a `cursor` of an earlier answer): how `mesh daemon logs --follow` polls without repeats. */
  after?: number
  /** Tags wanted; a tag also matches its dotted sub-namespaces (`architect-wake` → `architect-wake.skipped`). */
  tags?: string[]
  /** Minimum level. */
  level?: DebugLevel
}

export interface TailAnswer {
  events: DebugEvent[]
  /** How far back the stream reaches now (age of the oldest kept event), in seconds. */
  retained_secs: number
  /** The window asked for (`last`). */
  window_secs: number
  generated_at: string
  /** Pass as `cursor` to get only later events. Counts events since the daemon started; not stored in the file. */
  cursor: number
}

export interface DebugStream {
  log(input: DebugInput): DebugEvent
  tail(query: TailQuery): TailAnswer
  /** Writes what is pending; resolves once it is on disk. */
  flush(): Promise<void>
  close(): Promise<void>
}

const LEVEL_RANK: Record<DebugLevel, number> = {debug: 0, info: 1, warn: 2, error: 3}
export const levelAtLeast = (level: DebugLevel, minimum: DebugLevel) => LEVEL_RANK[level] >= LEVEL_RANK[minimum]

/** Normalizes an event: ms timestamp, capped msg, redacted data. `msg` itself is never scrubbed (spec). */
export function normalizeDebugEvent(input: DebugInput, now: number): DebugEvent {
  const event: DebugEvent = {
    ts: input.ts && !Number.isNaN(Date.parse(input.ts)) ? new Date(Date.parse(input.ts)).toISOString() : new Date(now).toISOString(),
    src: input.src ?? 'daemon',
    lvl: input.lvl,
    tag: input.tag,
    msg: input.msg.length > DEBUG_MSG_MAX_CHARS ? input.msg.slice(0, DEBUG_MSG_MAX_CHARS) : input.msg,
  }
  if (input.conv !== undefined) event.conv = input.conv
  if (input.agent_id !== undefined) event.agent_id = input.agent_id
  if (input.data !== undefined) event.data = redactData(input.data) as Record<string, unknown>
  return event
}

const tagMatches = (tag: string, wanted: string[]) => wanted.some((w) => tag === w || tag.startsWith(w + '.'))

/** The events of a stream file, oldest first, each with its line and time; a torn line (a killed daemon's last) is dropped. */
function debugLines(text: string): Array<{event: DebugEvent; line: string; at: number}> {
  const lines: Array<{event: DebugEvent; line: string; at: number}> = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const event = JSON.parse(line) as DebugEvent
      const at = Date.parse(event.ts)
      if (typeof event.tag !== 'string' || typeof event.msg !== 'string' || Number.isNaN(at)) continue
      lines.push({event, line, at})
    } catch {
      // Not an event.
    }
  }
  return lines
}

/**
 * The events the stream file under `root` (`.mesh/`) holds at `path`, as the last daemon left them, when no
 * daemon runs (`mesh daemon logs`); null when there is no file. Read without following a link (issue 18).
 */
export async function readDebugFile(root: string, path: string): Promise<DebugEvent[] | null> {
  const text = await readContainedText(root, path)
  return text === null ? null : debugLines(text).map((line) => line.event)
}

export interface DebugStreamOptions {
  /** The folder the stream lives under (the project's `.mesh/`): nothing is written through a link below it. */
  root: string
  /** The file, relative to `root` (`.runtime/debug.jsonl`). */
  path: string
  clock?: () => number
  retentionMs?: number
  retentionBytes?: number
  /** Called for every event written, e.g. to mirror it onto /events or stderr. */
  onEvent?: (event: DebugEvent) => void
}

/** Opens the stream, keeping what a previous daemon left within the retention window. */
export async function openDebugStream(options: DebugStreamOptions): Promise<DebugStream> {
  const clock = options.clock ?? Date.now
  const retentionMs = options.retentionMs ?? DEBUG_RETENTION_MS
  const retentionBytes = options.retentionBytes ?? DEBUG_RETENTION_BYTES
  // A linked .runtime/ or debug file is refused (issue 18): the daemon then does not start.
  await ensureContainedFolder(options.root, dirname(options.path))
  // Kept events with their serialized line and sequence number, oldest first.
  let kept: {event: DebugEvent; line: string; at: number; seq: number}[] = []
  let seq = 0
  let bytes = 0
  for (const {event, line, at} of debugLines((await readContainedText(options.root, options.path)) ?? '')) {
    kept.push({event, line: line + '\n', at, seq: ++seq})
    bytes += Buffer.byteLength(line) + 1
  }

  let pending = ''
  let writing: Promise<void> = Promise.resolve()
  let needsRewrite = true

  const expire = () => {
    const oldest = clock() - retentionMs
    let drop = 0
    let dropBytes = 0
    while (drop < kept.length && (kept[drop].at < oldest || bytes - dropBytes > retentionBytes)) {
      dropBytes += Buffer.byteLength(kept[drop].line)
      drop++
    }
    if (drop > 0) {
      kept = kept.slice(drop)
      bytes -= dropBytes
      needsRewrite = true
    }
  }

  // One write at a time, in order: appends normally, a full rewrite after expiry.
  const schedule = () => {
    writing = writing.then(async () => {
      if (needsRewrite) {
        needsRewrite = false
        pending = ''
        await writeContainedFile(options.root, options.path, kept.map((k) => k.line).join(''))
      } else if (pending) {
        const chunk = pending
        pending = ''
        await appendContainedFile(options.root, options.path, chunk)
      }
    }).catch(() => {
      // The stream is diagnostics: a full disk must not take the daemon down.
    })
    return writing
  }

  expire()
  await schedule()

  return {
    log(input) {
      const now = clock()
      const event = normalizeDebugEvent(input, now)
      const line = JSON.stringify(event) + '\n'
      kept.push({event, line, at: Date.parse(event.ts), seq: ++seq})
      bytes += Buffer.byteLength(line)
      pending += line
      expire()
      void schedule()
      options.onEvent?.(event)
      return event
    },
    tail(query) {
      const now = clock()
      expire()
      const since = now - query.lastSecs * 1000
      const events = kept
        .filter((k) => k.at >= since && (query.after === undefined || k.seq > query.after))
        .map((k) => k.event)
        .filter((e) => (!query.level || levelAtLeast(e.lvl, query.level)) && (!query.tags?.length || tagMatches(e.tag, query.tags)))
      return {
        events,
        retained_secs: kept.length ? Math.max(0, Math.round((now - kept[0].at) / 1000)) : 0,
        window_secs: query.lastSecs,
        generated_at: new Date(now).toISOString(),
        cursor: seq,
      }
    },
    flush: () => schedule(),
    close: () => schedule(),
  }
}
