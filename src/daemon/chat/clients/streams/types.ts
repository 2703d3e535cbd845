/**
 * What a client's stdout decodes into, whatever its format (issue 19,
 * Structured client streams; docs/daemon.md, Clients — formats). A decoder
 * is fed the client's stdout one line at a time and calls its sink as the
 * client's assistant text and tool activity arrive; what the client reports
 * about itself (the session it confirmed, its result text, its usage, an
 * error it declared) is kept for the end of the turn.
 */

/** `text`: any other CLI, each stdout line is text (today's behaviour). The others: each CLI's structured stream. */
export const STREAM_FORMATS = ['text', 'claude-stream', 'codex-json', 'gemini-stream'] as const
export type StreamFormat = (typeof STREAM_FORMATS)[number]

export const isStreamFormat = (value: unknown): value is StreamFormat => (STREAM_FORMATS as readonly unknown[]).includes(value)

/** One step of a client's tool activity, as the client reported it. */
export interface ToolStep {
  /** The client's id of this tool use, so a result joins its start; null when the client gives none. */
  id: string | null
  /** The tool's name; empty on a result whose start named it. */
  tool: string
  /** The tool's input as the client gave it (an object, a command line). */
  input?: unknown
  status: 'started' | 'done' | 'failed'
  /** The tool's result or error, as text (not yet clipped). */
  output?: string
}

/** Tokens and cost as the client reported them; null where it did not. */
export interface ReportedUsage {
  input_tokens: number | null
  output_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  cost_usd: number | null
}

/** What the client said about the turn, read at its end. */
export interface StreamReport {
  /** The session (claude, gemini) or thread (codex) id the client confirmed it runs; null when it did not. */
  session: string | null
  /** The answer the client gave as its result (claude's `result`, codex's last agent message); null: all its text is the answer. */
  resultText: string | null
  usage: ReportedUsage
  /** An error the client declared in its stream (a failed result, `turn.failed`), in its words. */
  error: string | null
}

export interface StreamSink {
  /** Assistant text, in any chunking (a whole message, a delta of a few characters). */
  text(chunk: string): void
  /** The end of one assistant message: the next text starts on a line of its own. */
  endMessage(): void
  tool(step: ToolStep): void
  /** A line the decoder skipped (an unknown event type, a line that is no JSON): never fatal. */
  debug(message: string): void
}

export interface StreamDecoder {
  /** One stdout line, without its newline. */
  line(line: string): void
  report(): StreamReport
}

export const emptyUsage = (): ReportedUsage => ({input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, cost_usd: null})

export const emptyReport = (): StreamReport => ({session: null, resultText: null, usage: emptyUsage(), error: null})

/** A finite number, or null. */
export const numberOr = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/** Adds a reported count to a running one (null + null stays null: nothing was reported). */
export const addCount = (total: number | null, value: unknown): number | null => {
  const n = numberOr(value)
  return n === null ? total : (total ?? 0) + n
}

/** Plain objects only: a JSON line that is not one is not an event. */
export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A line as one JSON event, or null (said to `sink.debug`) when it is not one. */
export function parseEvent(line: string, sink: StreamSink, client: string): Record<string, unknown> | null {
  if (line.trim() === '') return null
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    sink.debug(`skipped a ${client} line that is not JSON: ${JSON.stringify(line.slice(0, 80))}`)
    return null
  }
  if (!isRecord(value) || typeof value.type !== 'string') {
    sink.debug(`skipped a ${client} line without an event type: ${JSON.stringify(line.slice(0, 80))}`)
    return null
  }
  return value
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null)
