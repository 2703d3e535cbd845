/**
 * A turn's stdout from raw lines to deltas, tool steps and the kept text
 * (issue 19): marker blocks never streamed, lines assembled across chunks,
 * control characters removed, the kept bytes bounded.
 */
import {describe, expect, it} from 'vitest'
import {MAX_TURN_OUTPUT_BYTES} from '../../../src/daemon/chat/constants.js'
import {createTurnOutput, type ToolEvent} from '../../../src/daemon/chat/turn-output.js'

function output(format: Parameters<typeof createTurnOutput>[0]['format'] = 'text') {
  const lines: string[] = []
  const tools: ToolEvent[] = []
  const debug: string[] = []
  let tooLarge = 0
  const turn = createTurnOutput({format, root: '/work/project', onLine: (line) => lines.push(line), onTool: (event) => tools.push(event), debug: (message) => debug.push(message), onTooLarge: () => tooLarge++})
  return {turn, lines, tools, debug, tooLarge: () => tooLarge}
}

const delta = (text: string) => JSON.stringify({type: 'stream_event', event: {type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text}}, parent_tool_use_id: null})

describe('a turn’s output', () => {
  it('holds a marker block back from the stream (spec v38: reports are agent-to-agent) but keeps it in the text the markers are read from', () => {
    const {turn, lines} = output('claude-stream')
    for (const chunk of ['→ working on #I1 · #T1\nDone', '.\n``', '`mesh-report\n{"status": "done", ', '"summary": "x"}\n```\nbye']) turn.line(delta(chunk))
    turn.end()
    expect(lines).toEqual(['→ working on #I1 · #T1', 'Done.', 'bye'])
    expect(turn.text()).toBe('→ working on #I1 · #T1\nDone.\n```mesh-report\n{"status": "done", "summary": "x"}\n```\nbye')
  })

  it('shows the lines of a fence that never closes (it is no marker) once the stream ends', () => {
    const {turn, lines} = output('text')
    for (const line of ['before', '````mesh-delegate', '{"member": "developer"}', '```', 'still inside']) turn.line(line)
    expect(lines).toEqual(['before'])
    turn.end()
    expect(lines).toEqual(['before', '````mesh-delegate', '{"member": "developer"}', '```', 'still inside'])
  })

  it('removes control characters from decoded text, bidi and C1 included, as from a text client', () => {
    const {turn, lines} = output('gemini-stream')
    turn.line(JSON.stringify({type: 'message', role: 'assistant', content: 'a\u202eb\u001b[31mc\u0085d\n', delta: true}))
    turn.end()
    expect(lines).toEqual(['abcd'])
  })

  it('gives each tool step its summary, joins a result to its start, masks secrets, clips output and counts each use once', () => {
    const {turn, tools} = output('claude-stream')
    turn.line(JSON.stringify({type: 'assistant', message: {content: [{type: 'tool_use', id: 't1', name: 'Bash', input: {command: 'curl -H "Authorization: Bearer sk-abcdefghijklmnopqrstuvwx" https://x'}}]}}))
    turn.line(JSON.stringify({type: 'user', message: {content: [{type: 'tool_result', tool_use_id: 't1', content: `export API_KEY=hunter2-secret\n${'z'.repeat(5000)}`}]}}))
    turn.line(JSON.stringify({type: 'assistant', message: {content: [{type: 'tool_use', id: 't2', name: 'Read', input: {file_path: '/work/project/src/app.ts'}}]}}))
    turn.end()
    expect(tools.map((tool) => [tool.tool, tool.status, tool.summary])).toEqual([
      ['Bash', 'started', 'curl -H "Authorization: Bearer ***" https://x'],
      ['Bash', 'done', 'curl -H "Authorization: Bearer ***" https://x'],
      ['Read', 'started', 'src/app.ts'],
    ])
    expect(tools[1].output).toMatch(/^export API_KEY=\*\*\*\nz+… \(\d+ characters in all\)$/)
    expect(tools[1].output!.length).toBeLessThan(2_100)
    expect(JSON.stringify(tools)).not.toContain('hunter2')
    expect(turn.toolCalls()).toBe(2)
  })

  it('stops taking output past the limit, says so once, and says skipped lines in the debug stream at most 20 times', () => {
    const {turn, lines, debug, tooLarge} = output('text')
    const line = 'x'.repeat(10_000)
    for (let i = 0; i < MAX_TURN_OUTPUT_BYTES / 10_000 + 10; i++) turn.line(line)
    expect(tooLarge()).toBe(1)
    expect(lines.length).toBeLessThan(MAX_TURN_OUTPUT_BYTES / 10_000 + 1)
    const stream = output('codex-json')
    for (let i = 0; i < 30; i++) stream.turn.line(JSON.stringify({type: `mystery.${i}`}))
    stream.turn.end()
    expect(stream.debug).toHaveLength(21)
    expect(stream.debug.at(-1)).toBe('…and 10 more skipped line(s)')
    expect(debug).toEqual([])
  })
})
