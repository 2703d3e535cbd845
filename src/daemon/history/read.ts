/**
 * The timeline by day (issue 22, the IDE's Project view): which UTC days
 * `.mesh/timeline/` holds, and one day's events. Read through the no-link
 * helpers (issue 18): a linked folder lists nothing, a linked day file is
 * not read. Output deltas (`chat.assistant.delta`, one per printed line) are
 * counted, not returned: the turn's final holds its text.
 */
import {createInterface} from 'node:readline'
import {listContainedFolder, openContainedFile} from '../../lib/contained-files.js'
import {clip} from '../../http/html.js'
import {TIMELINE_DAY_FILE, TIMELINE_DIR, TIMELINE_TEXT_KEPT} from './constants.js'

export interface TimelineDay {
  day: string
  bytes: number
}

/** The days with a timeline file, newest first. */
export async function listTimelineDays(meshDir: string): Promise<TimelineDay[]> {
  const entries = await listContainedFolder(meshDir, TIMELINE_DIR).catch(() => [])
  const days: TimelineDay[] = []
  for (const entry of entries) {
    const match = entry.isFile() ? TIMELINE_DAY_FILE.exec(entry.name) : null
    if (!match) continue
    const handle = await openContainedFile(meshDir, `${TIMELINE_DIR}/${entry.name}`).catch(() => null)
    if (!handle) continue
    try {
      days.push({day: match[1], bytes: (await handle.stat()).size})
    } finally {
      await handle.close()
    }
  }
  return days.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))
}

export interface TimelineDayEvents {
  day: string
  /** The day's last `limit` events, oldest first, each as the file holds it without `src`; `text` cut at TIMELINE_TEXT_KEPT characters. */
  events: Array<Record<string, unknown>>
  /** Earlier events were left out (more than `limit`). */
  truncated: boolean
  /** `chat.assistant.delta` lines, counted and left out. */
  deltas: number
  /** Lines that are not JSON objects. */
  skipped: number
}

/** One day's events; null when the day has no (readable) file. */
export async function readTimelineDay(meshDir: string, day: string, limit: number): Promise<TimelineDayEvents | null> {
  const handle = await openContainedFile(meshDir, `${TIMELINE_DIR}/${day}.jsonl`).catch(() => null)
  if (!handle) return null
  const result: TimelineDayEvents = {day, events: [], truncated: false, deltas: 0, skipped: 0}
  try {
    for await (const text of createInterface({input: handle.createReadStream({encoding: 'utf8', autoClose: false}), crlfDelay: Infinity})) {
      if (!text.trim()) continue
      let line: unknown
      try {
        line = JSON.parse(text)
      } catch {
        result.skipped++
        continue
      }
      if (!line || typeof line !== 'object' || Array.isArray(line)) {
        result.skipped++
        continue
      }
      const {src: _src, ...event} = line as Record<string, unknown>
      if (event.type === 'chat.assistant.delta') {
        result.deltas++
        continue
      }
      if (typeof event.text === 'string') event.text = clip(event.text, TIMELINE_TEXT_KEPT)
      result.events.push(event)
      if (result.events.length > limit) {
        result.events.shift()
        result.truncated = true
      }
    }
  } finally {
    await handle.close()
  }
  return result
}
