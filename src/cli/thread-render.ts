/**
 * A conversation's thread as lines, for `mesh chat show` (issue 19, See and
 * stop; docs/cli.md, mesh chat): who said what and when, each turn's tools,
 * its final text or why it failed, what it cost, and the delegations it
 * opened and got answers to. Agents' text is printed inert (printable()).
 * Colour only on a terminal.
 */
import {printable} from '../client/printable.js'
import type {ThreadAnswer, ThreadEntry, TurnUsage} from '../daemon/chat/wire.js'

const time = (ts: string) => ts.slice(11, 19)
const CONTINUED = '         '

export function threadLines(thread: ThreadAnswer, colour: boolean): string[] {
  const paint = (code: string, value: string) => (colour ? `\x1b[${code}m${value}\x1b[0m` : value)
  const lines: string[] = []
  const block = (first: string, text: string) => {
    const [head = '', ...rest] = text.split('\n')
    lines.push(first + printable(head))
    for (const line of rest) lines.push(CONTINUED + printable(line))
  }
  const usage = thread.usage
  const cost = usage.cost_usd === null ? '' : ` · $${usage.cost_usd.toFixed(4)}`
  const tokens = usage.input_tokens + usage.output_tokens > 0 ? ` · ${usage.input_tokens} in / ${usage.output_tokens} out tokens` : ''
  lines.push(paint('1', `${thread.conv} · ${printable(thread.member ?? 'unknown member')} · ${thread.turns.done + thread.turns.failed} turn(s)${thread.turns.failed ? `, ${thread.turns.failed} failed` : ''}${cost}${tokens}${thread.live ? ' · running now' : ''}`))
  if (thread.truncated) lines.push(paint('2', `(earlier entries left out; --limit shows more)`))
  for (const entry of thread.entries) lines.push(...entryLines(entry, paint, block))
  return lines
}

function entryLines(entry: ThreadEntry, paint: (code: string, value: string) => string, block: (first: string, text: string) => void): string[] {
  const at = `${time(entry.ts)}  `
  const shown = (text: unknown) => printable(String(text ?? ''))
  switch (entry.type) {
    case 'chat.user':
      block(`${at}${paint('1;36', shown(entry.author))} › `, entry.text)
      return []
    case 'chat.turn.started':
      return [paint('2', `${at}▶ ${shown(entry.profile)} (${shown(entry.client)} ${shown(entry.model)}${entry.resumed ? ', resumed' : ''}) · ${shown(entry.turn_id)}`)]
    case 'chat.tool':
      if (entry.status === 'done') return []
      return [(entry.status === 'failed' ? (text: string) => paint('31', text) : (text: string) => paint('2', text))(`${CONTINUED}${entry.status === 'failed' ? '✗' : '⚙'} ${shown(entry.text || `${entry.tool} ${entry.summary}`)}`)]
    case 'chat.assistant.final': {
      const used = entry.usage as TurnUsage | undefined
      const spent = used ? [used.cost_usd !== null ? `$${used.cost_usd.toFixed(4)}` : null, used.tool_calls ? `${used.tool_calls} tool call(s)` : null, `${Math.round(used.duration_ms / 1000)} s`].filter(Boolean).join(', ') : ''
      if (entry.status === 'failed') {
        const failed = [paint('31', `${at}✗ ${shown(entry.profile)}'s turn failed (${shown(entry.reason)})${entry.detail ? `: ${shown(entry.detail)}` : ''}`)]
        const text = entry.text || (typeof entry.printed === 'string' ? entry.printed : '')
        if (text) failed.push(...text.split('\n').map((line) => CONTINUED + printable(line)))
        return failed
      }
      block(`${at}${paint('1;35', shown(entry.profile))} › `, entry.text || '(no text)')
      return spent ? [paint('2', `${CONTINUED}(${spent})`)] : []
    }
    case 'chat.assistant.printed':
      block(`${at}${paint('1;35', shown(entry.author))} … `, entry.text)
      return []
    case 'delegation.opened':
      return [paint('36', `${at}→ ${shown(entry.text)} (${shown(entry.request_id)})`)]
    case 'delegation.closed':
      return [paint(entry.outcome === 'success' ? '32' : '33', `${at}← ${shown(entry.text)} (${shown(entry.request_id)})`)]
    case 'delegation.resent':
      return [paint('2', `${at}↻ ${shown(entry.text)} (${shown(entry.request_id)})`)]
    case 'delegation.refused':
      return [paint('33', `${at}✗ ${shown(entry.text)}`)]
    default:
      return [paint('2', `${at}${shown(entry.text)}`)]
  }
}
