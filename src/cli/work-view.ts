/**
 * How `mesh ask` shows the work it follows on a terminal (issue 19, See and
 * stop; docs/cli.md, mesh ask): the asked member's lines as they stream,
 * each delegated turn nested under the turn that handed it on, tool steps,
 * refusals and answers as one dim or coloured line each, marker blocks left
 * out, agents' text made inert. Lines only, like the existing `mesh ask`
 * view: a scrollback you can copy from, not a redrawn screen.
 */
import type {WorkSummary, WorkTurn, WorkUpdate} from '../client/daemon/work-tracker.js'

export interface WorkViewOptions {
  /** ANSI colours (a terminal without NO_COLOR). */
  colour: boolean
  /** Makes an agent's text inert (control characters replaced). */
  safe(text: string): string
  write(line: string): void
  /** A fresh marker-block filter per turn (client/daemon/marker-lines.ts). */
  markerFilter(): {push(line: string): string[]; end(): string[]}
}

export interface WorkView {
  show(update: WorkUpdate): void
  /** The closing summary line, or null for a lone turn that handed nothing on. */
  summary(work: WorkSummary): string | null
}

const indent = (depth: number) => '  '.repeat(Math.max(0, depth))
const firstLine = (text: string) => text.split('\n').find((line) => line.trim() !== '')?.trim() ?? ''

export function createWorkView(options: WorkViewOptions): WorkView {
  const paint = (code: string, value: string) => (options.colour ? `\x1b[${code}m${value}\x1b[0m` : value)
  const filters = new Map<string, ReturnType<WorkViewOptions['markerFilter']>>()
  const toolsShown = new Set<string>()
  /** The turn whose lines were shown last: turns run at once, so a turn's lines are headed again whenever something else came between. */
  let current: string | null = null
  /** The asked turn: the command says its failure itself, as its error. */
  let asked: string | null = null
  const out = (depth: number, text: string) => options.write(indent(depth) + text)
  const filterOf = (turnId: string) => {
    let filter = filters.get(turnId)
    if (!filter) filters.set(turnId, (filter = options.markerFilter()))
    return filter
  }
  /** Lines of `turn`, under its header (`↳ <profile> › <conv> · <request>` nested, `<profile> › <conv>` for the asked conversation). */
  const show = (turn: WorkTurn, lines: string[]) => {
    if (lines.length === 0) return
    if (current !== turn.turn_id) {
      current = turn.turn_id
      out(turn.depth, paint(turn.depth === 0 ? '1;36' : '1;35', `${turn.depth === 0 ? '' : '↳ '}${options.safe(turn.profile)}`) + paint('2', ` › ${turn.conv}${turn.request_id ? ` · ${turn.request_id}` : ''}`))
    }
    for (const line of lines) out(turn.depth, line)
  }
  /** A line about the work itself (a brief, an answer, a refusal): the next turn line is headed again. */
  const note = (depth: number, line: string) => {
    current = null
    out(depth, line)
  }
  const failure = (final: Extract<WorkUpdate, {kind: 'final'}>['final']) => {
    const how = final.reason === 'cancelled' ? 'was cancelled' : final.reason === 'shutdown' ? 'was stopped (the daemon stopped)' : `failed (${final.reason ?? 'unknown'})${final.detail ? `: ${options.safe(final.detail)}` : ''}`
    return paint('31', `✗ ${options.safe(final.profile)}'s turn ${how}`)
  }

  return {
    show(update) {
      switch (update.kind) {
        case 'turn':
          // The asked turn sits under the command's own header; every other one is headed when it first shows something.
          if (asked === null) asked = current = update.turn.turn_id
          return
        case 'line':
          return show(update.turn, filterOf(update.turn.turn_id).push(update.text).map(options.safe))
        case 'tool': {
          const {tool, turn} = update
          const key = `${turn.turn_id}:${tool.tool_use_id ?? tool.seq}`
          const what = options.safe(tool.text || `${tool.tool} ${tool.summary}`)
          if (tool.status === 'failed') show(turn, [paint('31', `✗ ${what}`)])
          else if (!toolsShown.has(key)) show(turn, [paint('2', `⚙ ${what}`)])
          toolsShown.add(key)
          return
        }
        case 'final': {
          const {turn, final} = update
          show(turn, [...filterOf(turn.turn_id).end().map(options.safe), ...(final.status === 'failed' && turn.turn_id !== asked ? [failure(final)] : [])])
          filters.delete(turn.turn_id)
          return
        }
        case 'delegated':
          return note(update.request.depth - 1, paint('36', `→ ${options.safe(firstLine(update.brief))}`) + paint('2', ` (${update.request.request_id})`))
        case 'answered':
          return note(update.request.depth - 1, paint(update.closed.outcome === 'success' ? '32' : '33', `← ${options.safe(update.closed.text)}`))
        case 'refused':
          return note(update.depth, paint('33', `✗ ${options.safe(update.text)}`))
        case 'idle':
          return
      }
    },
    summary(work) {
      const delegations = work.requests.map((request) => `${request.member}: ${request.outcome ?? 'open'}`)
      if (work.turns.length <= 1 && delegations.length === 0 && work.cost_usd === null) return null
      const failed = work.turns.filter((turn) => turn.status === 'failed').length
      const parts = [`${work.turns.length} turn${work.turns.length === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}`]
      if (delegations.length) parts.push(`${delegations.length} delegation${delegations.length === 1 ? '' : 's'} (${delegations.join(', ')})`)
      if (work.cost_usd !== null) parts.push(`$${work.cost_usd.toFixed(4)}`)
      return paint('2', `— ${parts.join(' · ')}`)
    },
  }
}
