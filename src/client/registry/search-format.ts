/**
 * How `mesh search` shows results: an aligned, coloured table for a person
 * at a terminal; tab-separated lines (no header, no colour) for a pipe, so
 * `mesh search "ocr" | cut -f1` gives agent ids.
 */
import {printable} from '../printable.js'
import type {SearchAnswer, SearchHit} from './search-client.js'

const ESC = '\u001B['
const paint = (on: boolean, code: string, text: string) => (on ? `${ESC}${code}m${text}${ESC}0m` : text)

function operationalWord(hit: SearchHit): string {
  return hit.operational === true ? 'yes' : hit.operational === false ? 'no' : '?'
}

/** One line per result: agent_id, display_name, score, operational, card_match, endpoint, invoke URLs (space-separated). */
export function formatSearchLines(answer: SearchAnswer): string[] {
  // Card text is other agents' input: no tab may split a field, no control character reach the terminal.
  const clean = (text: string | null | undefined) => (text ? printable(text).replace(/ +/g, ' ') : '-')
  return answer.results.map((hit) =>
    [clean(hit.agent_id), clean(hit.display_name), String(hit.score), String(hit.operational), clean(hit.card_match), clean(hit.endpoint), clean(hit.invoke.map((i) => i.url).join(' ')) || '-'].join('\t'),
  )
}

/** Visible width of a cell (ANSI codes excluded). */
const width = (text: string) => [...text.replace(/\u001B\[[0-9;]*m/g, '')].length

function truncate(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : max <= 1 ? chars.slice(0, max).join('') : chars.slice(0, max - 1).join('') + '…'
}

/** The table a person reads: rank, agent, score, qualities, skills to invoke, description cut to the terminal width. */
export function formatSearchTable(answer: SearchAnswer, options: {columns?: number; colour?: boolean} = {}): string {
  const colour = options.colour ?? false
  const columns = options.columns ?? 100
  const header = ['#', 'AGENT', 'SCORE', 'OPERATIONAL', 'CARD MATCH', 'SKILLS', 'DESCRIPTION']
  const rows = answer.results.map((hit, i) => {
    const agentId = printable(hit.agent_id)
    const name = hit.display_name && hit.display_name !== hit.agent_id ? `${printable(hit.display_name)} (${agentId})` : agentId
    const op = operationalWord(hit)
    return [
      String(i + 1),
      hit.verified ? `${name} ${paint(colour, '36', '✓')}` : name,
      hit.score.toFixed(3),
      paint(colour, op === 'yes' ? '32' : op === 'no' ? '31' : '2', op),
      printable(hit.card_match ?? '-'),
      printable(hit.invoke.map((i) => i.skill).join(', ')) || '-',
      printable(hit.description ?? '').replace(/\s+/g, ' '),
    ]
  })
  const table = [header, ...rows]
  const widths = header.map((_, c) => Math.max(...table.map((row) => width(row[c]))))
  const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0)
  const descriptionWidth = Math.max(10, columns - fixed)
  return table
    .map((row, r) => {
      const cells = row.map((cell, c) => {
        if (c === row.length - 1) return paint(colour && r > 0, '2', truncate(cell, descriptionWidth))
        return cell + ' '.repeat(widths[c] - width(cell))
      })
      const line = cells.join('  ').trimEnd()
      return r === 0 ? paint(colour, '1', line) : line
    })
    .join('\n')
}
