/**
 * How `mesh ask` shows the work it follows on a terminal (issue 19, See and
 * stop; docs/cli.md, mesh ask): the asked member's lines as they stream,
 * each delegated turn nested under the turn that handed it on, tool steps,
 * refusals and answers as one dim or coloured line each, marker blocks left
 * out, agents' text made inert. Lines only, like the existing `mesh ask`
 * view: a scrollback you can copy from, not a redrawn screen.
 */
import type {WorkSummary, WorkUpdate} from '../client/daemon/work-tracker.js'

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
  let turnsSeen = 0
  const out = (depth: number, text: string) => options.write(indent(depth) + text)
  const filterOf = (turnId: string) => {
    let filter = filters.get(turnId)
    if (!filter) filters.set(turnId, (filter = options.markerFilter()))
    return filter
  }

  return {
    show(update) {
      switch (update.kind) {
        case 'turn': {
          const {turn} = update
          // The asked turn sits under the command's own header; every later one says whose it is.
          if (turnsSeen++ > 0) out(turn.depth, paint(turn.depth === 0 ? '1;36' : '1;35', `${turn.depth === 0 ? '' : '↳ '}${options.safe(turn.profile)}`) + paint('2', ` › ${turn.conv}${turn.request_id ? ` · ${turn.request_id}` : ''}`))
          return
        }
        case 'line':
          for (const line of filterOf(update.turn.turn_id).push(update.text)) out(update.turn.depth, options.safe(line))
          return
        case 'tool': {
          const {tool, turn} = update
          const key = `${turn.turn_id}:${tool.tool_use_id ?? tool.seq}`
          if (tool.status === 'failed') out(turn.depth, paint('31', `✗ ${options.safe(tool.text || `${tool.tool} ${tool.summary}`)}`))
          else if (!toolsShown.has(key)) out(turn.depth, paint('2', `⚙ ${options.safe(tool.text || `${tool.tool} ${tool.summary}`)}`))
          toolsShown.add(key)
          return
        }
        case 'final': {
          const {turn, final} = update
          for (const line of filterOf(turn.turn_id).end()) out(turn.depth, options.safe(line))
          filters.delete(turn.turn_id)
          if (final.status === 'failed') out(turn.depth, paint('31', `✗ ${options.safe(final.profile)}'s turn ${final.reason === 'cancelled' ? 'was cancelled' : final.reason === 'shutdown' ? 'was stopped (the daemon stopped)' : `failed (${final.reason ?? 'unknown'})`}${final.detail && final.reason !== 'cancelled' && final.reason !== 'shutdown' ? `: ${options.safe(final.detail)}` : ''}`))
          return
        }
        case 'delegated':
          out(update.request.depth - 1, paint('36', `→ ${options.safe(firstLine(update.brief))}`) + paint('2', ` (${update.request.request_id})`))
          return
        case 'answered':
          out(update.request.depth - 1, paint(update.closed.outcome === 'success' ? '32' : '33', `← ${options.safe(update.closed.text)}`))
          return
        case 'refused':
          out(update.depth, paint('33', `✗ ${options.safe(update.text)}`))
          return
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
