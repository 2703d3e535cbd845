// Structured client streams benchmark (issue 19; run `npm run build` first):
//   node bench/daemon/streams.mjs [--lines 10000] [--rounds 7] [--turns 8] [--turn-lines 400] [--json]
// (a) Decoding overhead: --lines stdout lines of each structured format
//     (claude stream-json with partial messages, codex exec --json, gemini
//     stream-json; text and tool steps mixed as real turns print them), fed
//     line by line through the daemon's turn output (decoder, line assembly
//     with marker hold-back, tool summaries); the baseline, run side by side
//     in the same rounds, is the `text` decoder on the same bytes. Prints the
//     time per line printed for each and the ratio. Bar: ≤ 50 µs per line.
// (b) Memory: the real `mesh serve` in a project scaffolded by `mesh init`,
//     --turns turns at once of a script-client member printing claude
//     stream-json (--turn-lines lines each, 5 ms apart, tool steps between),
//     each to its own conversation; the daemon's peak RSS (VmHWM of its own
//     process) read at the end, beside its idle RSS in the same run. Bar:
//     every turn done, peak RSS ≤ 200 MB.
// Prints PASS/FAIL per bar and exits 1 when one is missed.
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import WebSocket from 'ws'
import {createEmitter} from '../../dist/daemon/chat/script/emit.js'
import {createTurnOutput} from '../../dist/daemon/chat/turn-output.js'
import {ms, option, percentile, scaffold, sortedOf, startDaemon} from './lib.mjs'

const LINES = Number(option('lines', 10_000))
const ROUNDS = Number(option('rounds', 7))
const TURNS = Number(option('turns', 8))
const TURN_LINES = Number(option('turn-lines', 400))
const JSON_OUT = process.argv.includes('--json')
const BARS = {usPerLine: 50, peakRssMb: 200}

const sentence = (i) => `Line ${i}: the change to src/module-${i % 17}.ts keeps the old behaviour and adds a test for the edge case.`
const tool = (i) => (i % 3 === 0 ? {tool: 'Read', input: {file_path: `/work/project/src/module-${i}.ts`}, output: 'x'.repeat(400)} : i % 3 === 1 ? {tool: 'shell', input: {command: `npm test -- --grep case-${i}`}, output: 'ok\n'.repeat(20)} : {tool: 'Edit', input: {file_path: `src/module-${i}.ts`, old_string: 'a', new_string: 'b'}, output: 'updated'})

/** At least `count` stdout lines of `format`: text, with a tool step every 20 lines. */
function streamOf(format, count) {
  const lines = []
  const write = (chunk) => lines.push(...chunk.split('\n').filter(Boolean))
  if (format === 'codex-json') {
    // codex sends whole items: agent messages, reasoning and commands.
    write(JSON.stringify({type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53'}) + '\n')
    for (let i = 0; lines.length < count - 1; i++) {
      if (i % 20 === 19) {
        const step = tool(i)
        write(JSON.stringify({type: 'item.started', item: {id: `item_${i}`, type: 'command_execution', command: String(step.input.command ?? step.input.file_path), aggregated_output: '', status: 'in_progress'}}) + '\n')
        write(JSON.stringify({type: 'item.completed', item: {id: `item_${i}`, type: 'command_execution', command: String(step.input.command ?? step.input.file_path), aggregated_output: step.output, exit_code: 0, status: 'completed'}}) + '\n')
      } else if (i % 10 === 5) write(JSON.stringify({type: 'item.completed', item: {id: `item_${i}`, type: 'reasoning', text: `**Thinking about ${i}**`}}) + '\n')
      else write(JSON.stringify({type: 'item.completed', item: {id: `item_${i}`, type: 'agent_message', text: sentence(i)}}) + '\n')
    }
    write(JSON.stringify({type: 'turn.completed', usage: {input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122}}) + '\n')
    return lines
  }
  const emit = createEmitter(format, {session: '7f3c2a10-4b5e-4c8d-9e21-6a0b1c2d3e4f', model: 'bench', prompt: 'bench', cwd: '/work/project'}, write)
  emit.start()
  // The end adds 4 lines for claude (the block's stop, the message's stop, the whole message, the result), 1 for gemini.
  const tail = format === 'claude-stream' ? 4 : 1
  for (let i = 0; lines.length < count - tail; i++) {
    if (i % 20 === 19) emit.tool(tool(i))
    else emit.line(sentence(i))
  }
  emit.finish('done', {input_tokens: 100, output_tokens: 10, cost_usd: 0.01}, false)
  return lines
}

/** Nanoseconds per line to feed `lines` through a turn output of `format`. */
function decodeOnce(format, lines) {
  let delivered = 0
  const started = performance.now()
  const output = createTurnOutput({format, root: '/work/project', onLine: () => delivered++, onTool: () => delivered++, debug: () => {}, onTooLarge: () => {}})
  for (const line of lines) output.line(line)
  output.end()
  output.report()
  const elapsed = performance.now() - started
  if (delivered === 0) throw new Error(`${format}: nothing decoded`)
  return (elapsed * 1000) / lines.length
}

function decoding() {
  const results = []
  for (const format of ['claude-stream', 'codex-json', 'gemini-stream']) {
    const lines = streamOf(format, LINES)
    // Warm up both paths, then alternate them round by round.
    decodeOnce(format, lines)
    decodeOnce('text', lines)
    const structured = []
    const text = []
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        structured.push(decodeOnce(format, lines))
        text.push(decodeOnce('text', lines))
      } else {
        text.push(decodeOnce('text', lines))
        structured.push(decodeOnce(format, lines))
      }
    }
    const usPerLine = percentile(sortedOf(structured), 50)
    const baseline = percentile(sortedOf(text), 50)
    results.push({format, lines: lines.length, bytes: lines.reduce((sum, line) => sum + line.length + 1, 0), us_per_line: usPerLine, text_us_per_line: baseline, ratio: usPerLine / baseline})
  }
  return results
}

function procKb(pid, field) {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
  } catch {
    return null
  }
}

async function call(url, token, method, path, body) {
  const response = await fetch(`${url}${path}`, {method, headers: {'content-type': 'application/json', authorization: `Bearer ${token}`}, body: body === undefined ? undefined : JSON.stringify(body)})
  const json = await response.json()
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`)
  return json
}

async function memory() {
  const dir = scaffold('bench-streams')
  const say = Array.from({length: TURN_LINES}, (_, i) => `      ${sentence(i)}`).join('\n')
  const tools = Array.from({length: Math.max(1, Math.floor(TURN_LINES / 40))}, (_, i) => tool(i))
  mkdirSync(join(dir, '.mesh', 'scripts'), {recursive: true})
  writeFileSync(join(dir, '.mesh', 'scripts', 'developer.yaml'), `format: claude-stream\nreplies:\n  - delay_ms: 5\n    usage: {input_tokens: 1000, output_tokens: 400, cost_usd: 0.02}\n    tools: ${JSON.stringify(tools)}\n    say: |\n${say}\n`)
  let daemon
  try {
    daemon = await startDaemon(dir, ['--max-turns', String(TURNS)])
    const portal = readFileSync(join(dir, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
    await call(daemon.url, portal, 'PATCH', '/team/developer', {client: 'script', model: 'developer'})
    const idleMb = (procKb(daemon.pid, 'VmRSS') ?? Number.NaN) / 1024
    const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${portal}`}})
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const finals = new Map()
    let deltas = 0
    let toolEvents = 0
    ws.on('message', (data) => {
      const event = JSON.parse(String(data))
      if (event.type === 'chat.assistant.delta') deltas++
      else if (event.type === 'chat.tool') toolEvents++
      else if (event.type === 'chat.assistant.final') finals.get(event.data.conv)?.(event.data)
    })
    const started = performance.now()
    const ended = await Promise.all(
      Array.from({length: TURNS}, async (_, i) => {
        const conv = `c-bench-${i}`
        const final = new Promise((resolve) => finals.set(conv, resolve))
        await call(daemon.url, portal, 'POST', '/chat/send', {member: 'developer', conv, text: `stream ${i}`})
        return final
      }),
    )
    const wallMs = performance.now() - started
    ws.close()
    const peakMb = (procKb(daemon.pid, 'VmHWM') ?? Number.NaN) / 1024
    return {turns: TURNS, done: ended.filter((final) => final.status === 'done').length, deltas, tool_events: toolEvents, wall_ms: wallMs, idle_rss_mb: idleMb, peak_rss_mb: peakMb}
  } finally {
    await daemon?.stop()
    rmSync(dir, {recursive: true, force: true})
  }
}

const decoded = decoding()
const streamed = await memory()
const verdicts = [
  ...decoded.map((row) => ({name: `${row.format}: decoding ≤ ${BARS.usPerLine} µs per line`, pass: row.us_per_line <= BARS.usPerLine, text: `${row.us_per_line.toFixed(2)} µs`})),
  {name: `${TURNS} structured turns streaming at once all done`, pass: streamed.done === TURNS, text: `${streamed.done}/${TURNS}`},
  {name: `daemon peak RSS with ${TURNS} streaming turns ≤ ${BARS.peakRssMb} MB`, pass: Number.isFinite(streamed.peak_rss_mb) && streamed.peak_rss_mb <= BARS.peakRssMb, text: `${streamed.peak_rss_mb.toFixed(1)} MB`},
]
const allPass = verdicts.every((v) => v.pass)
if (JSON_OUT) console.log(JSON.stringify({decoding: decoded, memory: streamed, bars: verdicts, pass: allPass}))
else {
  console.log(`streams: decoding ${LINES} stdout lines per format, median of ${ROUNDS} rounds (2-core machine, shared); baseline: the text decoder on the same bytes`)
  for (const row of decoded) console.log(`  ${row.format.padEnd(14)} ${row.lines} lines, ${(row.bytes / 1024).toFixed(0)} KiB: ${row.us_per_line.toFixed(2)} µs/line; text ${row.text_us_per_line.toFixed(2)} µs/line; ratio ${row.ratio.toFixed(2)}×`)
  console.log(`streams: mesh serve, ${TURNS} script-client turns printing claude stream-json at once (${TURN_LINES} lines each, 5 ms apart)`)
  console.log(`  done in ${ms(streamed.wall_ms)}; ${streamed.deltas} deltas and ${streamed.tool_events} tool events on /events; daemon RSS idle ${streamed.idle_rss_mb.toFixed(1)} MB, peak ${streamed.peak_rss_mb.toFixed(1)} MB (${(streamed.peak_rss_mb / streamed.idle_rss_mb).toFixed(2)}× idle)`)
  for (const v of verdicts) console.log(`  bar: ${v.name} → ${v.text} ${v.pass ? 'PASS' : 'FAIL'}`)
}
process.exitCode = allPass ? 0 : 1
