/**
 * Reads the finals of a range from `.mesh/timeline/<day>.jsonl` (issue 19,
 * Cost and usage): only the days the range touches, each file streamed line
 * by line (a day of streamed turns is megabytes of deltas), only lines of
 * type `chat.assistant.final` inside the range. Files are opened through the
 * no-link helpers (issue 18): a timeline file or folder that is a link is
 * not read, said in the debug stream and in the answer's `warnings`.
 */
import {openContainedFile} from '../../../lib/contained-files.js'
import type {DaemonContext} from '../../context.js'
import {entryRefusal, listProjectFolder, reportRefused, reportRefusedPath} from '../../project-files.js'
import {daysOf, type UsageRange} from './range.js'
import {usageOf, type FinalLine} from './sum.js'

const FINAL_TYPE = 'chat.assistant.final'
const TIMELINE_DIR = 'timeline'

type Reader = Pick<DaemonContext, 'meshPath' | 'debug'>

export interface FinalsRead {
  /** Timeline files that were not read, each with why (a link, not a regular file). */
  warnings: string[]
}

/** The final a timeline line records, or null for any other line (or one that is not JSON). */
export function finalOfLine(line: string): FinalLine | null {
  // Most lines are deltas: a final's type must appear in the line before it is worth parsing.
  if (!line.includes(FINAL_TYPE)) return null
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const event = value as Record<string, unknown>
  if (event.type !== FINAL_TYPE || typeof event.ts !== 'string' || typeof event.conv !== 'string' || typeof event.member !== 'string') return null
  return {ts: event.ts, conv: event.conv, member: event.member, usage: usageOf(event.usage)}
}

/** Calls `visit` with every final of the range, oldest file first, in file order. */
export async function readFinals(context: Reader, range: UsageRange, visit: (final: FinalLine) => void): Promise<FinalsRead> {
  const warnings: string[] = []
  const wanted = new Set(daysOf(range).map((day) => `${day}.jsonl`))
  let entries
  try {
    entries = await listProjectFolder(context, TIMELINE_DIR)
  } catch (error) {
    warnings.push(`.mesh/${TIMELINE_DIR}/ was not read: ${(error as Error).message}`)
    return {warnings}
  }
  const names = entries.filter((entry) => wanted.has(entry.name)).sort((a, b) => (a.name < b.name ? -1 : 1))
  for (const entry of names) {
    const shown = `.mesh/${TIMELINE_DIR}/${entry.name}`
    const refusal = entryRefusal(entry)
    if (refusal) {
      reportRefusedPath(context, shown, refusal)
      warnings.push(`${shown} was not read: it is ${refusal}`)
      continue
    }
    let handle
    try {
      handle = await openContainedFile(context.meshPath(), `${TIMELINE_DIR}/${entry.name}`)
    } catch (error) {
      reportRefused(context, error)
      warnings.push(`${shown} was not read: ${(error as Error).message}`)
      continue
    }
    if (!handle) continue
    try {
      for await (const line of handle.readLines({autoClose: false})) {
        const final = finalOfLine(line)
        if (!final) continue
        const at = Date.parse(final.ts)
        if (at >= range.since && at < range.until) visit(final)
      }
    } finally {
      await handle.close()
    }
  }
  return {warnings}
}
