/**
 * Issue 19 through the daemon with the built-in script client, which prints
 * each CLI's structured stream (its script's `format`): no model needed for
 * any path. Each format gives deltas line by line (marker blocks held
 * back), `chat.tool` steps and a final whose text is the result's and whose
 * usage is what the stream reported; a text client's usage is null but for
 * the daemon's own count. A client's output past the limit is kept once;
 * a client never inherits CLAUDECODE nor the daemon's MESH_ variables.
 */
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {MAX_TURN_OUTPUT_BYTES} from '../../../src/daemon/chat/constants.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'
import {marker, writeScriptTeam, type ScriptMember} from './script-team.js'

let harness: DaemonHarness
let events: EventRecorder
const userClients = join(process.env.XDG_CONFIG_HOME!, 'mesh', 'clients.yaml')
afterEach(async () => {
  events?.stop()
  await harness?.close()
  writeFileSync(userClients, '', {mode: 0o600})
})

async function start(members: ScriptMember[], clients?: string) {
  mkdirSync(join(process.env.XDG_CONFIG_HOME!, 'mesh'), {recursive: true, mode: 0o700})
  writeFileSync(userClients, clients ?? '', {mode: 0o600})
  harness = await startHarness()
  writeScriptTeam(harness.repo.root, members)
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
}

const send = (body: Record<string, unknown>) => harness.call('POST', '/chat/send', {auth: true, body: JSON.stringify(body)})
const finalOf = (turn: string) => events.waitFor((event) => event.type === 'chat.assistant.final' && event.data.turn_id === turn, `the final of ${turn}`)
const ofTurn = (type: string, turn: string) => events.of(type).filter((event) => event.data.turn_id === turn)

const REPLY = {
  say: `→ working on #I1 · #T1\nFixed the login.\n${marker('report', {status: 'done', summary: 'fixed'})}\nThat is all.`,
  tools: [
    {tool: 'Read', input: {file_path: 'src/login.ts'}, output: 'export const login = 1'},
    {tool: 'shell', input: {command: 'npm test -- --token=ghp_0123456789abcdefghijABCDEFGHIJ'}, output: 'ok', failed: true},
  ],
  usage: {input_tokens: 1200, output_tokens: 80, cache_read_tokens: 900, cache_write_tokens: 40, cost_usd: 0.25},
  delay_ms: 5,
}

describe.each(['claude-stream', 'codex-json', 'gemini-stream'])('a script client printing %s', (format) => {
  it('streams the answer’s lines without its marker blocks, each tool step, and ends with the result’s text and the reported usage', async () => {
    await start([{id: 'developer', format, replies: [REPLY]}])
    const sent = await send({member: 'developer', text: 'fix the login'})
    const final = await finalOf(sent.body.turn_id)
    expect(final.data).toMatchObject({status: 'done', text: '→ working on #I1 · #T1\nFixed the login.\n\nThat is all.', anchor: {initiative: 'I1', task: 'T1'}})
    const deltas = ofTurn('chat.assistant.delta', sent.body.turn_id).map((event) => event.data.text)
    expect(deltas).toEqual(['→ working on #I1 · #T1', 'Fixed the login.', 'That is all.'])
    const tools = ofTurn('chat.tool', sent.body.turn_id).map((event) => event.data)
    const shown = format === 'codex-json' ? 'script.Read' : 'Read'
    expect(tools.map((tool) => [tool.tool, tool.status])).toEqual([
      [shown, 'started'],
      [shown, 'done'],
      ['shell', 'started'],
      ['shell', 'failed'],
    ])
    expect(tools[0]).toMatchObject({author: 'developer', member: 'developer', conv: sent.body.conv, seq: 0, text: `${shown} src/login.ts`, summary: 'src/login.ts', tool_use_id: expect.any(String)})
    expect(tools[2].summary).toBe('npm test -- --token=***')
    expect(JSON.stringify(events.events)).not.toContain('ghp_0123456789')
    const expected = {
      'claude-stream': {input_tokens: 1200, output_tokens: 80, cache_read_tokens: 900, cache_write_tokens: 40, cost_usd: 0.25},
      'codex-json': {input_tokens: 1200, output_tokens: 80, cache_read_tokens: 900, cache_write_tokens: null, cost_usd: null},
      'gemini-stream': {input_tokens: 1200, output_tokens: 80, cache_read_tokens: 900, cache_write_tokens: null, cost_usd: null},
    }[format]
    expect(final.data.usage).toEqual({...expected, duration_ms: expect.any(Number), tool_calls: 2})
    // The marker was read from the stream all the same: the report closes nothing here, but it is parsed.
    await harness.running.daemon.context.timeline.flush()
    const day = readdirSync(join(harness.repo.root, '.mesh', 'timeline'))[0]
    const lines = readFileSync(join(harness.repo.root, '.mesh', 'timeline', day), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.filter((line) => line.turn_id === sent.body.turn_id).map((line) => line.type)).toEqual(expect.arrayContaining(['chat.tool', 'chat.assistant.delta', 'chat.assistant.final']))
    expect(lines.some((line) => line.type === 'chat.assistant.delta' && String(line.text).includes('mesh-report'))).toBe(false)
  })
})

describe('a text client', () => {
  it('reports no tokens or cost, only the daemon’s duration and no tool calls, and never streams a marker block', async () => {
    await start([{id: 'developer', replies: [REPLY]}])
    const sent = await send({member: 'developer', text: 'fix it'})
    const final = await finalOf(sent.body.turn_id)
    expect(final.data.usage).toEqual({input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, cost_usd: null, duration_ms: expect.any(Number), tool_calls: 0})
    expect(ofTurn('chat.assistant.delta', sent.body.turn_id).map((event) => event.data.text)).toEqual(['→ working on #I1 · #T1', 'Fixed the login.', 'That is all.'])
    expect(ofTurn('chat.tool', sent.body.turn_id)).toEqual([])
  })

  it('keeps output past the limit once: in the deltas, not again in the final', async () => {
    await start([{id: 'developer', replies: []}], 'clients:\n  flood:\n    command: ["{node}", -e, "for (let i = 0; i < 3000; i++) console.log(String(i).padEnd(999, \'x\'))"]\n')
    const card = readFileSync(join(harness.repo.root, '.mesh', 'team', 'developer.md'), 'utf8').replace('client: script', 'client: flood')
    writeFileSync(join(harness.repo.root, '.mesh', 'team', 'developer.md'), card)
    const sent = await send({member: 'developer', text: 'go'})
    const final = await finalOf(sent.body.turn_id)
    expect(final.data).toMatchObject({status: 'failed', reason: 'output_too_large', text: ''})
    const kept = ofTurn('chat.assistant.delta', sent.body.turn_id).reduce((bytes, event) => bytes + Buffer.byteLength(String(event.data.text)) + 1, 0)
    expect(kept).toBeLessThanOrEqual(MAX_TURN_OUTPUT_BYTES)
    // Most of it is there (the process is stopped at a chunk boundary past the limit).
    expect(kept).toBeGreaterThan(MAX_TURN_OUTPUT_BYTES / 2)
  })

  it('never passes CLAUDECODE or the daemon’s MESH_ variables on to a client', async () => {
    const saved = {CLAUDECODE: process.env.CLAUDECODE, MESH_DAEMON_DETACHED: process.env.MESH_DAEMON_DETACHED, MESH_API_KEY: process.env.MESH_API_KEY}
    Object.assign(process.env, {CLAUDECODE: '1', MESH_DAEMON_DETACHED: '1', MESH_API_KEY: 'daemon-secret'})
    try {
      await start([{id: 'developer', replies: []}], 'clients:\n  env:\n    command: ["{node}", -e, "console.log(Object.keys(process.env).sort().join(\' \'))"]\n')
      const card = readFileSync(join(harness.repo.root, '.mesh', 'team', 'developer.md'), 'utf8').replace('client: script', 'client: env')
      writeFileSync(join(harness.repo.root, '.mesh', 'team', 'developer.md'), card)
      const sent = await send({member: 'developer', text: 'go'})
      const names = String((await finalOf(sent.body.turn_id)).data.text).split(' ')
      expect(names).toEqual(expect.arrayContaining(['PATH', 'MESH_TURN_FILE', 'MESH_CONV', 'MESH_MEMBER', 'MESH_TURN_ID']))
      expect(names).not.toContain('CLAUDECODE')
      expect(names.filter((name) => name.startsWith('MESH_')).sort()).toEqual(['MESH_CONV', 'MESH_MEMBER', 'MESH_TURN_FILE', 'MESH_TURN_ID'])
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })
})
