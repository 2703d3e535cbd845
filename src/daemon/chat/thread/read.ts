/**
 * A conversation read back from the timeline (issue 19, See and stop): what
 * `GET /chat/conv/<conv>/thread` and `mesh chat show` answer. The timeline
 * (`.mesh/timeline/<day>.jsonl`, one event per line) is the record: every
 * input, turn start, tool step, final, `become`, delegation opened, closed,
 * re-sent or refused, and task completed that names the conversation — as
 * its own `conv`, as the requester of a delegation, or as the conversation a
 * refused brief came from. Output deltas are left out where a final holds the
 * whole text; a turn that ended without text (killed, cancelled, lost with
 * its daemon, past the output limit) or is still running shows what it
 * printed (its last PRINTED_KEPT characters), since nothing else does. Files
 * are streamed line by line, never followed through a link (issue 18).
 * docs/daemon-api.md, Chat — the thread.
 */
import {createInterface} from 'node:readline'
import {listContainedFolder, openContainedFile} from '../../../lib/contained-files.js'
import type {DaemonContext} from '../../context.js'
import type {TurnUsage} from '../types.js'

/** The event types a thread holds. */
export const THREAD_TYPES = new Set([
  'chat.user',
  'chat.turn.started',
  'chat.tool',
  'chat.assistant.final',
  'chat.become',
  'delegation.opened',
  'delegation.closed',
  'delegation.resent',
  'delegation.refused',
  'task.completed',
  // issue 20: an architect pass's start and its decisions line, in the pass's conversation.
  'architect.pass.started',
  'architect.pass.ended',
])

/** What a thread keeps of a turn's printed lines when its final holds no text: the end, where a summary or an error stands. */
export const PRINTED_KEPT = 16 * 1024

const TIMELINE_DIR = 'timeline'
const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/

/** One timeline line of the thread: `ts`, `type`, `author`, `text` and the event's own fields. */
export type ThreadEntry = {ts: string; type: string; author: string; text: string} & Record<string, unknown>

export interface Thread {
  conv: string
  /** The conversation's member: from its first line that names one. */
  member: string | null
  entries: ThreadEntry[]
  /** The entries before these were left out (`limit`). */
  truncated: boolean
  turns: {done: number; failed: number}
  /** What the finals reported, summed; `cost_usd` null when no final reported a cost. */
  usage: {input_tokens: number; output_tokens: number; cost_usd: number | null; tool_calls: number}
}

const belongs = (line: Record<string, unknown>, conv: string) => {
  if (line.conv === conv || line.from_conv === conv) return true
  const requester = line.requester as {conv?: unknown} | undefined
  return !!requester && typeof requester === 'object' && requester.conv === conv
}

/** The thread of `conv`: its last `limit` entries, oldest first; null when the timeline never names it. */
export async function readThread(context: Pick<DaemonContext, 'meshPath'>, conv: string, limit: number): Promise<Thread | null> {
  const days = (await listContainedFolder(context.meshPath(), TIMELINE_DIR).catch(() => []))
    .filter((entry) => entry.isFile() && DAY_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort()
  // Every line that names the conv spells it this way (JSON.stringify writes no spaces): the rest is not parsed.
  const needle = `conv":${JSON.stringify(conv)}`
  const entries: ThreadEntry[] = []
  let truncated = false
  let member: string | null = null
  const turns = {done: 0, failed: 0}
  const usage: Thread['usage'] = {input_tokens: 0, output_tokens: 0, cost_usd: null, tool_calls: 0}
  // The printed lines of each turn of this conv until its final: kept only if that final has no text.
  const printed = new Map<string, {ts: string; author: string; text: string}>()
  const push = (entry: ThreadEntry) => {
    entries.push(entry)
    if (entries.length > limit) {
      entries.shift()
      truncated = true
    }
  }
  for (const day of days) {
    const handle = await openContainedFile(context.meshPath(), `${TIMELINE_DIR}/${day}`).catch(() => null)
    if (!handle) continue
    try {
      for await (const text of createInterface({input: handle.createReadStream({encoding: 'utf8', autoClose: false}), crlfDelay: Infinity})) {
        if (!text.includes(needle)) continue
        let line: Record<string, unknown>
        try {
          line = JSON.parse(text) as Record<string, unknown>
        } catch {
          continue
        }
        if (line.type === 'chat.assistant.delta' && line.conv === conv && typeof line.turn_id === 'string') {
          const so = printed.get(line.turn_id)
          const text = so ? `${so.text}\n${String(line.text ?? '')}` : String(line.text ?? '')
          printed.set(line.turn_id, {ts: so?.ts ?? String(line.ts), author: String(line.author ?? ''), text: text.length > PRINTED_KEPT ? text.slice(-PRINTED_KEPT) : text})
          continue
        }
        if (typeof line.type !== 'string' || !THREAD_TYPES.has(line.type) || !belongs(line, conv)) continue
        if (member === null && line.conv === conv && typeof line.member === 'string') member = line.member
        if (line.type === 'chat.assistant.final' && line.conv === conv) {
          if (line.status === 'done') turns.done++
          else turns.failed++
          const reported = line.usage as Partial<TurnUsage> | undefined
          if (reported && typeof reported === 'object') {
            usage.input_tokens += reported.input_tokens ?? 0
            usage.output_tokens += reported.output_tokens ?? 0
            usage.tool_calls += reported.tool_calls ?? 0
            if (typeof reported.cost_usd === 'number') usage.cost_usd = (usage.cost_usd ?? 0) + reported.cost_usd
          }
        }
        const {src: _src, ...entry} = line
        if (line.type === 'chat.assistant.final' && typeof line.turn_id === 'string') {
          const so = printed.get(line.turn_id)
          printed.delete(line.turn_id)
          if (so && !line.text) entry.printed = so.text
        }
        push(entry as ThreadEntry)
      }
    } finally {
      await handle.close()
    }
  }
  // Turns still running (or whose final never came): what they printed so far.
  for (const [turnId, so] of printed) push({ts: so.ts, type: 'chat.assistant.printed', author: so.author, text: so.text, conv, turn_id: turnId})
  if (entries.length === 0 && member === null) return null
  return {conv, member, entries, truncated, turns, usage}
}
