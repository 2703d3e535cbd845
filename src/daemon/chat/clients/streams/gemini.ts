/**
 * Gemini CLI's `--output-format stream-json` stream (headless mode,
 * https://geminicli.com/docs/cli/headless; the event shapes of
 * google-gemini/gemini-cli packages/core/src/output/types.ts): one JSON event
 * a line, each with `type` and `timestamp` —
 * - `init`: `session_id` (what `--resume <id>` continues), `model`;
 * - `message`: `role` (`user` | `assistant`), `content`, `delta` (a chunk);
 * - `tool_use`: `tool_name`, `tool_id`, `parameters`;
 * - `tool_result`: `tool_id`, `status` (`success` | `error`), `output`,
 *   `error` {`type`, `message`} (a refused tool: `policy_violation`);
 * - `error`: `severity` (`warning` | `error`), `message` — non-fatal;
 * - `result`: `status`, `error`?, `stats` (`input_tokens`, `output_tokens`,
 *   `cached`, `input`, `duration_ms`, `tool_calls`, per-model `models`).
 * Gemini reports no cost, and no answer text apart from its messages: the
 * answer is all the assistant's text.
 */
import {addCount, emptyReport, isRecord, parseEvent, str, type StreamDecoder, type StreamSink} from './types.js'

export function geminiDecoder(sink: StreamSink): StreamDecoder {
  const report = emptyReport()
  return {
    line(line) {
      const event = parseEvent(line, sink, 'gemini')
      if (!event) return
      switch (event.type) {
        case 'init':
          if (typeof event.session_id === 'string') report.session = event.session_id
          return
        case 'message':
          if (event.role === 'assistant') sink.text(str(event.content) ?? '')
          return
        case 'tool_use':
          sink.endMessage()
          sink.tool({id: str(event.tool_id), tool: str(event.tool_name) ?? 'tool', input: event.parameters, status: 'started'})
          return
        case 'tool_result': {
          const failed = event.status === 'error'
          const output = failed && isRecord(event.error) ? str(event.error.message) : str(event.output)
          sink.tool({id: str(event.tool_id), tool: '', status: failed ? 'failed' : 'done', ...(output !== null ? {output} : {})})
          return
        }
        case 'error':
          sink.debug(`gemini reported ${event.severity === 'warning' ? 'a warning' : 'an error'}: ${str(event.message) ?? ''}`)
          return
        case 'result': {
          sink.endMessage()
          if (event.status === 'error') report.error = (isRecord(event.error) ? str(event.error.message) : null) ?? 'the result was an error'
          const stats = isRecord(event.stats) ? event.stats : {}
          report.usage.input_tokens = addCount(report.usage.input_tokens, stats.input_tokens)
          report.usage.output_tokens = addCount(report.usage.output_tokens, stats.output_tokens)
          report.usage.cache_read_tokens = addCount(report.usage.cache_read_tokens, stats.cached)
          return
        }
        default:
          sink.debug(`skipped a gemini event of unknown type ${JSON.stringify(event.type)}`)
      }
    },
    report: () => report,
  }
}
