/**
 * The decoder of each client stream format (issue 19, Structured client
 * streams), fed the sample streams of fixtures/ (taken from each CLI's own
 * documentation; fixtures/README.md) one line at a time.
 */
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {createDecoder, type StreamFormat, type ToolStep} from '../../../../../src/daemon/chat/clients/streams/index.js'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.jsonl`, import.meta.url), 'utf8').trimEnd().split('\n')

function decode(format: StreamFormat, lines: string[]) {
  let text = ''
  const tools: ToolStep[] = []
  const debug: string[] = []
  const decoder = createDecoder(format, {
    text: (chunk) => (text += chunk),
    endMessage: () => {
      if (text !== '' && !text.endsWith('\n')) text += '\n'
    },
    tool: (step) => tools.push(step),
    debug: (message) => debug.push(message),
  })
  for (const line of lines) decoder.line(line)
  return {text, tools, debug, report: decoder.report()}
}

describe('claude -p --output-format stream-json --verbose --include-partial-messages', () => {
  it('takes the session from the init line, the text from the deltas once, tool uses and their results, and the result’s text, usage and cost', () => {
    const {text, tools, debug, report} = decode('claude-stream', fixture('claude'))
    expect(text).toBe('→ working on #I1 · #T1\nLet me read the file first.\nI could not edit it: permission was not granted.\n')
    expect(tools).toEqual([
      {id: 'toolu_01A', tool: 'Read', input: {file_path: '/work/project/src/app.ts'}, status: 'started'},
      {id: 'toolu_01A', tool: '', status: 'done', output: '     1\texport const app = 1\n'},
      {id: 'toolu_02B', tool: 'Edit', input: {file_path: '/work/project/src/app.ts', old_string: '= 1', new_string: '= 2'}, status: 'started'},
      {id: 'toolu_02B', tool: '', status: 'failed', output: expect.stringContaining("you haven't granted it yet")},
    ])
    expect(report).toEqual({
      session: '7f3c2a10-4b5e-4c8d-9e21-6a0b1c2d3e4f',
      resultText: 'I could not edit it: permission was not granted.',
      usage: {input_tokens: 14, output_tokens: 131, cache_read_tokens: 13560, cache_write_tokens: 2210, cost_usd: 0.04215},
      error: null,
    })
    // The subagent's message is not the answer; the unknown event is skipped, never fatal.
    expect(text).not.toContain('subagent')
    expect(debug).toContain('skipped a claude event of unknown type "some_future_event"')
  })

  it('takes the text from whole messages when partial messages are off, and an error result as the client’s error', () => {
    const lines = fixture('claude').filter((line) => !line.includes('"stream_event"'))
    const error = JSON.stringify({type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 9, session_id: 's', total_cost_usd: 1, usage: {input_tokens: 1, output_tokens: 1}})
    const {text, report} = decode('claude-stream', [...lines.slice(0, -2), error])
    expect(text).toBe('→ working on #I1 · #T1\nLet me read the file first.\nI could not edit it: permission was not granted.\n')
    expect(report).toMatchObject({resultText: null, error: 'the result was error_max_turns', usage: {cost_usd: 1}})
  })
})

describe('codex exec --json', () => {
  it('reads docs/exec.md’s sample: the thread id, the command as a tool, the agent message as the answer, the usage; no cost', () => {
    const {text, tools, debug, report} = decode('codex-json', fixture('codex'))
    expect(text).toBe('Yep — there’s a `README.md` in the repository root.\n')
    expect(tools).toEqual([
      {id: 'item_1', tool: 'shell', input: {command: 'bash -lc ls'}, status: 'started'},
      {id: 'item_1', tool: 'shell', input: {command: 'bash -lc ls'}, status: 'done', output: expect.stringContaining('AGENTS.md')},
    ])
    expect(report).toEqual({
      session: '0199a213-81c0-7800-8aa1-bbab2a035a53',
      resultText: 'Yep — there’s a `README.md` in the repository root.',
      usage: {input_tokens: 24763, output_tokens: 122, cache_read_tokens: 24448, cache_write_tokens: null, cost_usd: null},
      error: null,
    })
    expect(debug).toEqual([])
  })

  it('reads file changes, MCP calls, a failed command and a failed turn, and skips what it does not know', () => {
    const lines = [
      {type: 'item.completed', item: {id: 'i1', type: 'file_change', changes: [{path: 'src/a.ts', kind: 'update'}], status: 'failed'}},
      {type: 'item.started', item: {id: 'i2', type: 'mcp_tool_call', server: 'github', tool: 'search_issues', arguments: {q: 'x'}, status: 'in_progress'}},
      {type: 'item.completed', item: {id: 'i2', type: 'mcp_tool_call', server: 'github', tool: 'search_issues', arguments: {q: 'x'}, result: {content: [{type: 'text', text: '3 issues'}]}, status: 'completed'}},
      {type: 'item.completed', item: {id: 'i3', type: 'command_execution', command: 'rm -rf /', aggregated_output: 'denied', exit_code: 1, status: 'completed'}},
      {type: 'item.completed', item: {id: 'i4', type: 'hologram'}},
      {type: 'turn.failed', error: {message: 'stream disconnected'}},
      {type: 'thread.exploded'},
    ].map((event) => JSON.stringify(event))
    const {tools, debug, report} = decode('codex-json', [...lines, 'not json at all'])
    expect(tools.map((step) => [step.tool, step.status])).toEqual([
      ['file_change', 'failed'],
      ['github.search_issues', 'started'],
      ['github.search_issues', 'done'],
      ['shell', 'failed'],
    ])
    expect(tools[2].output).toBe('3 issues')
    expect(report.error).toBe('stream disconnected')
    expect(debug).toEqual(['skipped a codex item of unknown type "hologram"', 'skipped a codex event of unknown type "thread.exploded"', 'skipped a codex line that is not JSON: "not json at all"'])
  })
})

describe('gemini --output-format stream-json', () => {
  it('takes the session from init, the assistant’s message deltas as the answer, tool uses and results, and the result’s stats; no cost', () => {
    const {text, tools, debug, report} = decode('gemini-stream', fixture('gemini'))
    expect(text).toBe('There are two files here; I was not allowed to write NOTES.md.\n')
    expect(tools).toEqual([
      {id: 'list_directory-1760097601000-0', tool: 'list_directory', input: {dir_path: '.'}, status: 'started'},
      {id: 'list_directory-1760097601000-0', tool: '', status: 'done', output: 'Listed 2 item(s).'},
      {id: 'write_file-1760097602000-1', tool: 'write_file', input: {file_path: 'NOTES.md', content: 'notes'}, status: 'started'},
      {id: 'write_file-1760097602000-1', tool: '', status: 'failed', output: 'Tool execution denied by policy.'},
    ])
    expect(report).toEqual({session: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890', resultText: null, usage: {input_tokens: 1600, output_tokens: 144, cache_read_tokens: 1200, cache_write_tokens: null, cost_usd: null}, error: null})
    expect(debug).toEqual(['gemini reported a warning: Loop detected, stopping execution'])
  })
})

describe('text', () => {
  it('is each line as it came, with no session, usage or tools', () => {
    const {text, tools, report} = decode('text', ['hello', '{"type":"init","session_id":"x"}', ''])
    expect(text).toBe('hello\n{"type":"init","session_id":"x"}\n')
    expect(tools).toEqual([])
    expect(report).toEqual({session: null, resultText: null, usage: {input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, cost_usd: null}, error: null})
  })
})
