/**
 * How `mesh team usage` and `mesh team budget` show what the team spent
 * (docs/cli.md, mesh team usage). Conversation and member ids come from the
 * timeline, which anything on this machine may have written: every one goes
 * through `printable`.
 */
import {printable} from '../client/printable.js'
import type {BudgetState, UsageReport, UsageTotals} from '../daemon/chat/wire.js'

/** `$12.34`; under a cent, as many decimals as it takes (`$0.0042`). */
export function usd(value: number): string {
  if (value === 0) return '$0.00'
  if (Math.abs(value) >= 0.01) return `$${value.toFixed(2)}`
  return `$${Number(value.toPrecision(2))}`
}

/** `1,234,567` */
const count = (value: number) => value.toLocaleString('en-US')

/** Turns whose usage is unknown, in words, or '' when there are none. */
function unknownPart(totals: UsageTotals): string {
  const parts = []
  if (totals.turns_without_usage > 0) parts.push(`${totals.turns_without_usage} without usage`)
  if (totals.turns_without_cost > 0) parts.push(`${totals.turns_without_cost} without cost`)
  return parts.join(', ')
}

/** Aligned columns: the first `names` columns are names (left), the numbers right, the last one as it is. */
function table(header: string[], rows: string[][], names = 1): string[] {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)))
  const cellOf = (cell: string, column: number) => (column === header.length - 1 ? cell : column < names ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))
  return [header, ...rows].map((row) => row.map(cellOf).join('  ').trimEnd())
}

const TOTAL_COLUMNS = ['TURNS', 'COST', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'TOOLS', 'UNKNOWN']
const totalCells = (totals: UsageTotals) => [
  count(totals.turns),
  usd(totals.cost_usd),
  count(totals.input_tokens),
  count(totals.output_tokens),
  count(totals.cache_read_tokens),
  count(totals.cache_write_tokens),
  count(totals.tool_calls),
  unknownPart(totals) || '—',
]

/** The budget in one line: the limit, today's cost, and whether turns are refused. */
export function budgetLine(budget: BudgetState & {held_turns?: number}): string {
  if (budget.max_cost_per_day === null) return `budget: no daily limit (today ${budget.day}: ${usd(budget.spent_usd)} reported)`
  const head = `budget: ${usd(budget.spent_usd)} of ${usd(budget.max_cost_per_day)} today (${budget.day}, UTC)`
  if (!budget.exhausted) return `${head} · open`
  const held = budget.held_turns ? `; ${budget.held_turns} conversation(s) wait` : ''
  return `${head} · spent: new turns are refused until ${budget.resets_at}${held} (raise it with \`mesh team budget <usd>\`)`
}

/** The whole report: totals, the budget, then one table per grouping. */
export function usageLines(report: UsageReport): string[] {
  const {total} = report
  const lines = [
    `${report.since} → ${report.until}: ${count(total.turns)} turn(s), ${usd(total.cost_usd)} reported, ${count(total.input_tokens)} input and ${count(total.output_tokens)} output tokens`,
  ]
  const unknown = unknownPart(total)
  if (unknown) lines.push(`  of those turns, ${unknown}: their usage is not in these sums`)
  lines.push(budgetLine(report.budget))
  for (const warning of report.warnings) lines.push(`warning: ${printable(warning)}`)
  if (total.turns === 0) return lines
  lines.push('', ...table(['MEMBER', ...TOTAL_COLUMNS], report.members.map((m) => [printable(m.member), ...totalCells(m)])))
  lines.push('', ...table(['DAY', ...TOTAL_COLUMNS], report.days.map((d) => [d.day, ...totalCells(d)])))
  lines.push('', ...table(['CONVERSATION', 'MEMBER', ...TOTAL_COLUMNS], report.convs.map((c) => [printable(c.conv), printable(c.member), ...totalCells(c)]), 2))
  return lines
}
