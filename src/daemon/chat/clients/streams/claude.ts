/**
 * Claude Code's `-p --output-format stream-json --verbose
 * --include-partial-messages` stream (https://code.claude.com/docs/en/headless,
 * "Stream responses"; the message types of the Agent SDK,
 * https://code.claude.com/docs/en/agent-sdk/typescript): one JSON message a
 * line —
 * - `system` / `init`: the session it runs (`session_id`), its tools, model;
 * - `stream_event`: the raw API stream, whose `content_block_delta` with a
 *   `text_delta` carries the text as it is written (with partial messages);
 * - `assistant`: each whole message; its `tool_use` blocks are the tool calls
 *   (its text is the same text again when partial messages stream it);
 * - `user`: the `tool_result` blocks answering them (`is_error` when refused);
 * - `result`: the end — `result` (the answer), `is_error`, `num_turns`,
 *   `usage`, `total_cost_usd`, `session_id`.
 * A subagent's messages (`parent_tool_use_id` set) are its own work, not the
 * answer: skipped. test/daemon/chat/clients/streams/fixtures has a sample.
 */
import {addCount, emptyReport, isRecord, numberOr, parseEvent, str, type StreamDecoder, type StreamSink} from './types.js'

/** A tool result's content: a string, or a list of blocks whose text blocks are joined. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter(isRecord)
    .map((block) => (block.type === 'text' ? (str(block.text) ?? '') : `[${String(block.type)}]`))
    .join('\n')
}

export function claudeDecoder(sink: StreamSink): StreamDecoder {
  const report = emptyReport()
  // With --include-partial-messages the text arrives twice: as deltas, then in the whole message.
  let partials = false

  function assistant(event: Record<string, unknown>) {
    const message = isRecord(event.message) ? event.message : {}
    const content = Array.isArray(message.content) ? message.content.filter(isRecord) : []
    for (const block of content) {
      if (block.type === 'text' && !partials) {
        sink.text(str(block.text) ?? '')
        sink.endMessage()
      } else if (block.type === 'tool_use') {
        sink.endMessage()
        sink.tool({id: str(block.id), tool: str(block.name) ?? 'tool', input: block.input, status: 'started'})
      }
    }
  }

  function user(event: Record<string, unknown>) {
    const message = isRecord(event.message) ? event.message : {}
    const content = Array.isArray(message.content) ? message.content.filter(isRecord) : []
    for (const block of content) {
      if (block.type !== 'tool_result') continue
      sink.tool({id: str(block.tool_use_id), tool: '', status: block.is_error === true ? 'failed' : 'done', output: resultText(block.content)})
    }
  }

  function result(event: Record<string, unknown>) {
    report.resultText = str(event.result)
    if (typeof event.session_id === 'string') report.session = report.session ?? event.session_id
    const usage = isRecord(event.usage) ? event.usage : {}
    report.usage.input_tokens = addCount(report.usage.input_tokens, usage.input_tokens)
    report.usage.output_tokens = addCount(report.usage.output_tokens, usage.output_tokens)
    report.usage.cache_read_tokens = addCount(report.usage.cache_read_tokens, usage.cache_read_input_tokens)
    report.usage.cache_write_tokens = addCount(report.usage.cache_write_tokens, usage.cache_creation_input_tokens)
    report.usage.cost_usd = addCount(report.usage.cost_usd, event.total_cost_usd)
    if (event.is_error === true) {
      const errors = Array.isArray(event.errors) ? event.errors.filter((item): item is string => typeof item === 'string') : []
      report.error = errors.join('; ') || report.resultText || `the result was ${String(event.subtype ?? 'an error')}`
    }
    if (numberOr(event.num_turns) !== null) sink.debug(`claude reported ${String(event.num_turns)} turn(s)`)
  }

  return {
    line(line) {
      const event = parseEvent(line, sink, 'claude')
      if (!event) return
      switch (event.type) {
        case 'system':
          if (event.subtype === 'init' && typeof event.session_id === 'string') report.session = event.session_id
          return
        case 'stream_event': {
          if (event.parent_tool_use_id) return
          const inner = isRecord(event.event) ? event.event : {}
          if (inner.type === 'content_block_delta' && isRecord(inner.delta) && inner.delta.type === 'text_delta') {
            partials = true
            sink.text(str(inner.delta.text) ?? '')
          } else if (inner.type === 'content_block_stop' || inner.type === 'message_stop') sink.endMessage()
          return
        }
        case 'assistant':
          if (!event.parent_tool_use_id) assistant(event)
          return
        case 'user':
          if (!event.parent_tool_use_id) user(event)
          return
        case 'result':
          return result(event)
        default:
          sink.debug(`skipped a claude event of unknown type ${JSON.stringify(event.type)}`)
      }
    },
    report: () => report,
  }
}
