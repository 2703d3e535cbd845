/**
 * How the script client prints a reply in each client stream format (issue
 * 19: "the built-in script client can emit each of the three formats so
 * every path is tested without a model"). The shapes are the ones each CLI
 * documents (../clients/streams/*.ts cite them); the sample streams in
 * test/daemon/chat/clients/streams/fixtures/ come from the same pages.
 * `text` prints the reply's lines as they are.
 */
import {randomUUID} from 'node:crypto'
import type {StreamFormat} from '../clients/streams/types.js'

export interface EmittedTool {
  tool: string
  input?: unknown
  output?: string
  /** The tool was refused or failed. */
  failed?: boolean
}

export interface EmittedUsage {
  input_tokens?: number
  output_tokens?: number
  cache_read_tokens?: number
  cache_write_tokens?: number
  cost_usd?: number
}

export interface Emitter {
  /** The stream's opening: the session it runs. */
  start(): void
  tool(step: EmittedTool): void
  /** One line of the answer (streamed as it is printed). */
  line(text: string): void
  /** The stream's end: the result with the whole answer, its usage, and whether the turn failed. */
  finish(answer: string, usage: EmittedUsage, failed: boolean): void
}

export interface EmitterFacts {
  session: string
  model: string
  prompt: string
  cwd: string
}

const json = (write: (line: string) => void) => (value: unknown) => write(JSON.stringify(value) + '\n')

/** Claude Code `-p --output-format stream-json --verbose --include-partial-messages`. */
function claude(facts: EmitterFacts, write: (line: string) => void): Emitter {
  const out = json(write)
  const base = () => ({session_id: facts.session, uuid: randomUUID()})
  let opened = false
  let tools = 0
  const started = Date.now()
  const message = () => ({id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, type: 'message', role: 'assistant', model: facts.model})
  const close = () => {
    if (!opened) return
    opened = false
    out({type: 'stream_event', event: {type: 'content_block_stop', index: 0}, parent_tool_use_id: null, ...base()})
    out({type: 'stream_event', event: {type: 'message_stop'}, parent_tool_use_id: null, ...base()})
  }
  return {
    start() {
      out({type: 'system', subtype: 'init', cwd: facts.cwd, tools: ['Read', 'Edit', 'Write', 'Bash'], mcp_servers: [], model: facts.model, permissionMode: 'default', apiKeySource: 'none', ...base()})
    },
    tool(step) {
      close()
      const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`
      tools++
      out({type: 'assistant', message: {...message(), content: [{type: 'tool_use', id, name: step.tool, input: step.input ?? {}}], stop_reason: 'tool_use'}, parent_tool_use_id: null, ...base()})
      out({type: 'user', message: {role: 'user', content: [{tool_use_id: id, type: 'tool_result', content: step.output ?? '', is_error: step.failed === true}]}, parent_tool_use_id: null, ...base()})
    },
    line(text) {
      if (!opened) {
        opened = true
        out({type: 'stream_event', event: {type: 'message_start', message: {...message(), content: []}}, parent_tool_use_id: null, ...base()})
        out({type: 'stream_event', event: {type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}}, parent_tool_use_id: null, ...base()})
      }
      out({type: 'stream_event', event: {type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: `${text}\n`}}, parent_tool_use_id: null, ...base()})
    },
    finish(answer, usage, failed) {
      close()
      if (answer !== '') out({type: 'assistant', message: {...message(), content: [{type: 'text', text: answer}], stop_reason: 'end_turn'}, parent_tool_use_id: null, ...base()})
      out({
        type: 'result',
        subtype: failed ? 'error_during_execution' : 'success',
        is_error: failed,
        duration_ms: Date.now() - started,
        duration_api_ms: Date.now() - started,
        num_turns: tools + 1,
        ...(failed ? {} : {result: answer}),
        total_cost_usd: usage.cost_usd ?? 0,
        usage: {input_tokens: usage.input_tokens ?? 0, cache_creation_input_tokens: usage.cache_write_tokens ?? 0, cache_read_input_tokens: usage.cache_read_tokens ?? 0, output_tokens: usage.output_tokens ?? 0},
        permission_denials: [],
        ...base(),
      })
    },
  }
}

/** Codex `codex exec --json`. */
function codex(facts: EmitterFacts, write: (line: string) => void): Emitter {
  const out = json(write)
  let item = 0
  return {
    start() {
      out({type: 'thread.started', thread_id: facts.session})
      out({type: 'turn.started'})
    },
    tool(step) {
      const id = `item_${item++}`
      const shell = step.tool === 'shell'
      const started = shell
        ? {id, type: 'command_execution', command: String((step.input as {command?: unknown} | undefined)?.command ?? ''), aggregated_output: '', exit_code: null, status: 'in_progress'}
        : {id, type: 'mcp_tool_call', server: 'script', tool: step.tool, arguments: step.input ?? {}, result: null, error: null, status: 'in_progress'}
      out({type: 'item.started', item: started})
      const done = shell
        ? {...started, aggregated_output: step.output ?? '', exit_code: step.failed ? 1 : 0, status: step.failed ? 'failed' : 'completed'}
        : {...started, ...(step.failed ? {error: {message: step.output ?? 'failed'}} : {result: {content: [{type: 'text', text: step.output ?? ''}], structured_content: null}}), status: step.failed ? 'failed' : 'completed'}
      out({type: 'item.completed', item: done})
    },
    line() {
      // Codex sends an agent message whole, once it is written (docs/exec.md): see finish.
    },
    finish(answer, usage, failed) {
      if (answer !== '') out({type: 'item.completed', item: {id: `item_${item++}`, type: 'agent_message', text: answer}})
      if (failed) out({type: 'turn.failed', error: {message: 'the script reply exits with an error'}})
      else out({type: 'turn.completed', usage: {input_tokens: usage.input_tokens ?? 0, cached_input_tokens: usage.cache_read_tokens ?? 0, output_tokens: usage.output_tokens ?? 0}})
    },
  }
}

/** Gemini CLI `--output-format stream-json`. */
function gemini(facts: EmitterFacts, write: (line: string) => void): Emitter {
  const out = json(write)
  const at = () => new Date().toISOString()
  let tools = 0
  const started = Date.now()
  return {
    start() {
      out({type: 'init', timestamp: at(), session_id: facts.session, model: facts.model})
      out({type: 'message', timestamp: at(), role: 'user', content: facts.prompt.slice(0, 200)})
    },
    tool(step) {
      const id = `${step.tool}-${Date.now()}-${tools++}`
      out({type: 'tool_use', timestamp: at(), tool_name: step.tool, tool_id: id, parameters: step.input ?? {}})
      out({type: 'tool_result', timestamp: at(), tool_id: id, status: step.failed ? 'error' : 'success', ...(step.failed ? {error: {type: 'policy_violation', message: step.output ?? 'Tool execution denied by policy.'}} : {output: step.output ?? ''})})
    },
    line(text) {
      out({type: 'message', timestamp: at(), role: 'assistant', content: `${text}\n`, delta: true})
    },
    finish(_answer, usage, failed) {
      const input = usage.input_tokens ?? 0
      const cached = usage.cache_read_tokens ?? 0
      const output = usage.output_tokens ?? 0
      const stats = {total_tokens: input + output, input_tokens: input, output_tokens: output, cached, input: input - cached, duration_ms: Date.now() - started, tool_calls: tools, models: {[facts.model]: {total_tokens: input + output, input_tokens: input, output_tokens: output, cached, input: input - cached}}}
      out({type: 'result', timestamp: at(), status: failed ? 'error' : 'success', ...(failed ? {error: {type: 'FatalError', message: 'the script reply exits with an error'}} : {}), stats})
    },
  }
}

function text(_facts: EmitterFacts, write: (line: string) => void): Emitter {
  return {
    start() {},
    tool() {},
    line: (line) => write(line + '\n'),
    finish() {},
  }
}

const EMITTERS: Record<StreamFormat, (facts: EmitterFacts, write: (line: string) => void) => Emitter> = {text, 'claude-stream': claude, 'codex-json': codex, 'gemini-stream': gemini}

/** An emitter printing `format` through `write`. */
export const createEmitter = (format: StreamFormat, facts: EmitterFacts, write: (chunk: string) => void): Emitter => EMITTERS[format](facts, write)
