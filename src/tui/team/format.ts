/** The words of `mesh team watch`'s view: each part a plain, terminal-safe string (the view adds colour). */
import {terminalSafe} from '../../client/cluster/text.js'
import type {MemberStatus, Notice, RequestRow, WorkNode} from './state.js'

export const STATUS_MARK: Record<MemberStatus, string> = {working: '●', waiting: '◐', idle: '○'}
export const STATUS_COLOUR: Record<MemberStatus, string> = {working: 'green', waiting: 'yellow', idle: 'gray'}

/** `12:03:04` of an ISO instant (UTC, as the daemon stamps events). */
export const clock = (ts: string | null) => (ts ? ts.slice(11, 19) : '')

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** What a conv at work is doing, in one line after its member and conv. */
export function nodeState(node: WorkNode): string {
  const parts: string[] = []
  if (node.turn) {
    const as = node.turn.profile !== node.member ? `as ${node.turn.profile} ` : ''
    parts.push(`▶ ${as}${node.turn.last_line ? `“${node.turn.last_line}”` : 'running'}`)
  } else if (node.waiting_on > 0) parts.push(`⋯ waiting on ${plural(node.waiting_on, 'request')}`)
  else if (node.owes.length > 0) parts.push('⋯ owes a report')
  if (node.owes.length > 0) parts.push(`for ${[...new Set(node.owes.map((row) => row.requester.member))].join(', ')}`)
  if (node.queued > 0) parts.push(`${node.queued} queued${node.next ? `, next “${node.next}”` : ''}`)
  if (node.failed > 0) parts.push(`${node.failed} failed in queue`)
  if (node.paused && node.queued > 0) parts.push('queue paused (mesh queue resume)')
  return terminalSafe(parts.join(' · '))
}

/** The tree as lines: `[indent, member, conv, state]`, children under their parent. */
export function treeLines(nodes: WorkNode[], depth = 0): Array<{indent: string; member: string; conv: string; state: string; live: boolean}> {
  return nodes.flatMap((node) => [
    {indent: depth === 0 ? '' : `${'  '.repeat(depth - 1)}└ `, member: terminalSafe(node.member), conv: terminalSafe(node.conv), state: nodeState(node), live: node.turn !== null},
    ...treeLines(node.children, depth + 1),
  ])
}

export const requestLine = (row: RequestRow) => terminalSafe(`${row.request_id}  ${row.summary}  · since ${clock(row.opened_at)}`)
export const noticeLine = (notice: Notice) => terminalSafe(`${clock(notice.ts)}  ${notice.text}`)
