/**
 * The daemon's writer of `timeline/<YYYY-MM-DD>.jsonl` (spec: Logs — one UTC
 * event per line, append-only; fields `ts`, `type`, `author`, `text`): each
 * line is also published on the event bus as `{type, ts, data}` at once,
 * while the file writes are batched per file so a hundred streaming turns
 * cost a few appends, not thousands. Lines carry `src: "daemon"` so the file
 * watcher does not announce them a second time (docs/daemon-api.md, Chat).
 */
import {appendContainedFile} from '../lib/contained-files.js'
import {DAEMON_TIMELINE_SRC} from './chat/constants.js'
import type {DaemonContext} from './context.js'

export interface TimelineEntry {
  author: string
  text: string
  [field: string]: unknown
}

export interface Timeline {
  /** Publishes `type` with `entry` as its data and appends the line; never throws. */
  append(type: string, entry: TimelineEntry): void
  /** Resolves once every line appended so far is on disk. */
  flush(): Promise<void>
}

/** `2026-11-24` of an instant, in UTC (spec: timeline files are UTC days). */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export function createTimeline(context: Pick<DaemonContext, 'meshPath' | 'clock' | 'events' | 'debug'>): Timeline {
  const pending = new Map<string, string[]>()
  let writing: Promise<void> = Promise.resolve()
  let scheduled = false

  const write = async () => {
    scheduled = false
    const batches = [...pending]
    pending.clear()
    for (const [day, lines] of batches) {
      try {
        // One append of whole lines: a reader never sees half a line from us. A linked
        // timeline/ or day file is refused (issue 18): nothing is appended outside .mesh/.
        await appendContainedFile(context.meshPath(), `timeline/${day}.jsonl`, lines.join(''))
      } catch (error) {
        context.debug.log({lvl: 'error', tag: 'timeline', msg: `could not append ${lines.length} line(s) to timeline/${day}.jsonl: ${(error as Error).message}`})
      }
    }
  }

  return {
    append(type, entry) {
      const event = context.events.publish(type, entry)
      const line = JSON.stringify({ts: event.ts, type, ...entry, src: DAEMON_TIMELINE_SRC}) + '\n'
      const day = utcDay(Date.parse(event.ts))
      const lines = pending.get(day) ?? []
      lines.push(line)
      pending.set(day, lines)
      if (!scheduled) {
        scheduled = true
        writing = writing.then(() => new Promise((resolve) => setImmediate(resolve))).then(write)
      }
    },
    async flush() {
      while (scheduled || pending.size > 0) await writing
      await writing
    },
  }
}
