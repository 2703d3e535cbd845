/**
 * OpenAI Codex's `codex exec --json` stream (openai/codex docs/exec.md,
 * "JSON output mode"; the event types of codex-rs/exec/src/exec_events.rs):
 * one JSON event a line —
 * - `thread.started` (`thread_id`: what `codex exec resume <id>` continues),
 *   `turn.started`;
 * - `item.started` / `item.updated` / `item.completed` with an `item` whose
 *   `type` is `agent_message` (the text, whole), `reasoning`,
 *   `command_execution` (`command`, `aggregated_output`, `exit_code`,
 *   `status`), `file_change` (`changes`, only ever completed),
 *   `mcp_tool_call` (`server`, `tool`, `arguments`, `result`/`error`),
 *   `web_search`, `todo_list`, `error` (non-fatal);
 * - `turn.completed` (`usage`: `input_tokens`, `cached_input_tokens`,
 *   `output_tokens`), `turn.failed` (`error.message`), `error` (`message`).
 * Codex reports no cost. Older releases named the item's type `item_type`;
 * both are read.
 */
import {addCount, emptyReport, isRecord, parseEvent, str, type StreamDecoder, type StreamSink, type ToolStep} from './types.js'

/** An MCP result's content blocks as text. */
function mcpOutput(item: Record<string, unknown>): string | undefined {
  if (isRecord(item.error)) return str(item.error.message) ?? undefined
  const result = isRecord(item.result) ? item.result : null
  if (!result) return undefined
  const blocks = Array.isArray(result.content) ? result.content.filter(isRecord) : []
  return blocks.map((block) => str(block.text) ?? `[${String(block.type)}]`).join('\n')
}

/** The tool step an item stands for, or null for an item that is not a tool (messages, reasoning, plans). */
function toolOf(item: Record<string, unknown>, kind: string, completed: boolean): ToolStep | null {
  const id = str(item.id)
  const ended = (ok: boolean): ToolStep['status'] => (!completed ? 'started' : ok ? 'done' : 'failed')
  switch (kind) {
    case 'command_execution': {
      const exit = item.exit_code
      const ok = item.status === 'completed' && (exit === null || exit === undefined || exit === 0)
      return {id, tool: 'shell', input: {command: item.command}, status: ended(ok), ...(completed ? {output: str(item.aggregated_output) ?? ''} : {})}
    }
    case 'file_change':
      return {id, tool: 'file_change', input: {changes: item.changes}, status: ended(item.status === 'completed')}
    case 'mcp_tool_call':
      return {id, tool: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, input: item.arguments, status: ended(item.status === 'completed'), ...(completed ? {output: mcpOutput(item)} : {})}
    case 'web_search':
      return {id, tool: 'web_search', input: {query: item.query}, status: ended(true)}
    default:
      return null
  }
}

const NOT_TOOLS = new Set(['agent_message', 'reasoning', 'todo_list', 'plan', 'error', 'collab_tool_call'])

export function codexDecoder(sink: StreamSink): StreamDecoder {
  const report = emptyReport()

  function item(event: Record<string, unknown>) {
    const item = isRecord(event.item) ? event.item : {}
    const kind = str(item.type) ?? str(item.item_type) ?? ''
    const completed = event.type === 'item.completed'
    if (kind === 'agent_message') {
      if (!completed) return
      const text = str(item.text) ?? ''
      sink.text(text)
      sink.endMessage()
      report.resultText = text
      return
    }
    if (kind === 'error') {
      if (completed) sink.debug(`codex reported a non-fatal error: ${str(item.message) ?? ''}`)
      return
    }
    // file_change is only ever emitted completed; a started one has no update worth a line.
    if (event.type === 'item.updated') return
    const step = toolOf(item, kind, completed)
    if (step) sink.tool(step)
    else if (!NOT_TOOLS.has(kind)) sink.debug(`skipped a codex item of unknown type ${JSON.stringify(kind)}`)
  }

  return {
    line(line) {
      const event = parseEvent(line, sink, 'codex')
      if (!event) return
      switch (event.type) {
        case 'thread.started':
          if (typeof event.thread_id === 'string') report.session = event.thread_id
          return
        case 'turn.started':
        case 'item.plan.delta':
          return
        case 'item.started':
        case 'item.updated':
        case 'item.completed':
          return item(event)
        case 'turn.completed': {
          const usage = isRecord(event.usage) ? event.usage : {}
          report.usage.input_tokens = addCount(report.usage.input_tokens, usage.input_tokens)
          report.usage.output_tokens = addCount(report.usage.output_tokens, usage.output_tokens)
          report.usage.cache_read_tokens = addCount(report.usage.cache_read_tokens, usage.cached_input_tokens)
          return
        }
        case 'turn.failed':
          report.error = (isRecord(event.error) ? str(event.error.message) : null) ?? 'the turn failed'
          return
        case 'error':
          report.error = str(event.message) ?? 'codex reported an error'
          return
        default:
          sink.debug(`skipped a codex event of unknown type ${JSON.stringify(event.type)}`)
      }
    },
    report: () => report,
  }
}
