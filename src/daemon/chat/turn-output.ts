/**
 * A turn's stdout from raw lines to what the daemon keeps and shows (issue
 * 19, Structured client streams; docs/daemon.md, Chat): the client's format
 * decoder turns each line into assistant text and tool steps; the text is
 * assembled into clean lines (control characters removed, as for a text
 * client), each handed over as soon as it is complete — except the lines of
 * a marker block, held back and never streamed (spec v38: reports are
 * agent-to-agent; the final's text drops them too). Tool steps get their
 * one-line summary, masked and clipped. What is kept (text and tool lines)
 * is bounded by MAX_TURN_OUTPUT_BYTES: past it the turn is to be killed.
 */
import {MAX_LINE_CHARS, MAX_TURN_OUTPUT_BYTES} from './constants.js'
import {createDecoder, type StreamFormat, type StreamReport} from './clients/streams/index.js'
import {cleanLine} from './output-lines.js'
import {clipOutput, summarizeInput} from './tool-summary.js'

/** A fence opening a marker block on a line of its own, as markers.ts reads it. */
const MARKER_OPENING = /^(`{3,})[ \t]*mesh-[a-z]+[ \t]*$/
/** Skipped lines said in the debug stream per turn; the rest are counted. */
const DEBUG_LINES_PER_TURN = 20

export interface ToolEvent {
  tool_use_id: string | null
  tool: string
  summary: string
  status: 'started' | 'done' | 'failed'
  output?: string
}

export interface TurnOutputOptions {
  format: StreamFormat
  /** The project root: paths inside it are shown relative. */
  root: string
  /** One complete line of the assistant's text, outside any marker block. */
  onLine(line: string): void
  onTool(event: ToolEvent): void
  debug(message: string): void
  /** What is kept passed MAX_TURN_OUTPUT_BYTES: nothing more is taken, and the turn should be stopped. */
  onTooLarge(): void
}

export interface TurnOutput {
  /** One raw stdout line, without its newline. */
  line(raw: string): void
  /** The stream ended: a line still open is complete, an unclosed block is no marker and is shown. */
  end(): void
  /** Every line of the assistant's text, markers included. */
  text(): string
  report(): StreamReport
  /** Tool uses the client made (each counted once, at its first step). */
  toolCalls(): number
}

export function createTurnOutput(options: TurnOutputOptions): TurnOutput {
  const lines: string[] = []
  let partial = ''
  let fence: string | null = null
  let held: string[] = []
  let kept = 0
  let tooLarge = false
  const toolNames = new Map<string, string>()
  const toolSummaries = new Map<string, string>()
  let toolCalls = 0
  let debugLines = 0

  const keep = (bytes: number): boolean => {
    if (tooLarge) return false
    kept += bytes
    if (kept <= MAX_TURN_OUTPUT_BYTES) return true
    tooLarge = true
    options.onTooLarge()
    return false
  }

  const complete = (raw: string) => {
    const line = cleanLine(raw)
    if (!keep(Buffer.byteLength(line) + 1)) return
    lines.push(line)
    if (fence !== null) {
      held.push(line)
      if (new RegExp(`^${fence}[ \\t]*$`).test(line)) {
        fence = null
        held = []
      }
      return
    }
    const opening = MARKER_OPENING.exec(line)
    if (opening) {
      fence = opening[1]
      held = [line]
      return
    }
    options.onLine(line)
  }

  const endMessage = () => {
    if (partial === '') return
    const line = partial
    partial = ''
    complete(line)
  }

  const decoder = createDecoder(options.format, {
    text(chunk) {
      if (chunk === '' || tooLarge) return
      partial += chunk
      let newline = partial.indexOf('\n')
      while (newline !== -1) {
        const line = partial.slice(0, newline)
        partial = partial.slice(newline + 1)
        complete(line)
        newline = partial.indexOf('\n')
      }
      // A line that never ends is handed over in pieces rather than held whole.
      if (partial.length > MAX_LINE_CHARS) endMessage()
    },
    endMessage,
    tool(step) {
      if (tooLarge) return
      const known = step.id !== null && toolNames.has(step.id)
      if (!known) toolCalls++
      const tool = step.tool || (step.id !== null ? toolNames.get(step.id) : undefined) || 'tool'
      const summary = step.input !== undefined ? summarizeInput(step.input, options.root) : ((step.id !== null ? toolSummaries.get(step.id) : undefined) ?? '')
      if (step.id !== null) {
        toolNames.set(step.id, tool)
        toolSummaries.set(step.id, summary)
      }
      const output = step.output !== undefined && step.output !== '' ? clipOutput(step.output) : undefined
      if (!keep(tool.length + summary.length + (output?.length ?? 0) + 64)) return
      options.onTool({tool_use_id: step.id, tool, summary, status: step.status, ...(output !== undefined ? {output} : {})})
    },
    debug(message) {
      debugLines++
      if (debugLines <= DEBUG_LINES_PER_TURN) options.debug(message)
    },
  })

  return {
    line: (raw) => decoder.line(raw),
    end() {
      endMessage()
      // An unclosed fence is no marker (markers.ts does not read it either): its lines are text.
      if (fence !== null) for (const line of held) options.onLine(line)
      fence = null
      held = []
      if (debugLines > DEBUG_LINES_PER_TURN) options.debug(`…and ${debugLines - DEBUG_LINES_PER_TURN} more skipped line(s)`)
    },
    text: () => lines.join('\n'),
    report: () => decoder.report(),
    toolCalls: () => toolCalls,
  }
}
