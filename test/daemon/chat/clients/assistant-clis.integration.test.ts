/**
 * Issue 19's bar, through the real binary and HTTP: stand-in `claude`,
 * `codex` and `gemini` executables first on PATH (no clients.yaml), each
 * printing its documented stream format with delays and failing the way the
 * real CLI fails on wrong flags (test/support/assistant-clis). With the
 * default templates:
 * - a developer's turn edits a file, the consultant's does not (access per
 *   member, mapped to each CLI's permission flags), and an ask with the
 *   developer's member token runs at read, whatever its level;
 * - the first text delta reaches /events before the turn ends;
 * - tool events and the reported usage and cost arrive;
 * - a crashed first turn is followed by a working second one (a fresh
 *   session, said in the thread, when the client never confirmed the first;
 *   the confirmed one resumed otherwise).
 */
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {subscribeEvents, type EventsSubscription} from '../../../../src/client/daemon/events.js'
import type {DaemonEventMessage} from '../../../../src/protocol/events.js'
import {frontmatter, makeRepo, type FixtureRepo} from '../../../standard/fixtures.js'
import {serveProject, STAND_IN_BIN, standInEnv, type ServedProject} from './served.js'

let repo: FixtureRepo | undefined
let served: ServedProject | undefined
let scratch: string | undefined
let events: EventsSubscription | undefined
afterEach(async () => {
  events?.close()
  await served?.stop()
  repo?.cleanup()
  if (scratch) rmSync(scratch, {recursive: true, force: true})
  served = repo = scratch = events = undefined
})

const CLIENTS = ['claude', 'codex', 'gemini'] as const
type Client = (typeof CLIENTS)[number]

interface Recorded {
  all: DaemonEventMessage[]
  /** Resolves with the first event `match` accepts, seen or to come. */
  next(match: (event: DaemonEventMessage) => boolean): Promise<DaemonEventMessage>
  of(type: string, turn: string): DaemonEventMessage[]
}

async function start(client: Client, options: {exposure?: 'internal' | 'external'; userClients?: string} = {}): Promise<Recorded> {
  repo = makeRepo({
    '.mesh/team/developer.md': frontmatter({id: 'developer', title: 'Developer', client, context: [], exposure: options.exposure ?? 'internal'}, '\nYou develop.\n'),
    '.mesh/team/consultant.md': frontmatter({id: 'consultant', title: 'Consultant', client, context: [], exposure: 'internal'}, '\nYou advise.\n'),
  })
  scratch = mkdtempSync(join(tmpdir(), 'mesh-clis-'))
  const env = standInEnv(scratch)
  if (options.userClients !== undefined) {
    // The user's own clients.yaml (docs/daemon.md, Clients): mode 0600 in a 0700 folder.
    env.XDG_CONFIG_HOME = join(scratch, 'xdg')
    mkdirSync(join(env.XDG_CONFIG_HOME, 'mesh'), {recursive: true, mode: 0o700})
    writeFileSync(join(env.XDG_CONFIG_HOME, 'mesh', 'clients.yaml'), options.userClients, {mode: 0o600})
  }
  served = await serveProject(repo.root, env)
  const all: DaemonEventMessage[] = []
  const waiting: Array<{match: (event: DaemonEventMessage) => boolean; resolve(event: DaemonEventMessage): void}> = []
  events = subscribeEvents({
    url: served.url,
    token: served.token,
    onEvent(event) {
      all.push(event)
      for (const wait of [...waiting]) {
        if (!wait.match(event)) continue
        waiting.splice(waiting.indexOf(wait), 1)
        wait.resolve(event)
      }
    },
  })
  await events.opened
  return {
    all,
    next: (match) => {
      const seen = all.find(match)
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({match, resolve}))
    },
    of: (type, turn) => all.filter((event) => event.type === type && event.data.turn_id === turn),
  }
}

const finalOf = (recorded: Recorded, turn: string) => recorded.next((event) => event.type === 'chat.assistant.final' && event.data.turn_id === turn)

async function turn(recorded: Recorded, body: Record<string, unknown>) {
  const sent = await served!.send(body)
  expect(sent.status).toBe(202)
  const final = await finalOf(recorded, sent.body.turn_id)
  return {sent: sent.body, final: final.data}
}

describe.each(CLIENTS)('with the %s stand-in and the default templates', (client) => {
  it('a developer’s turn edits a file and the consultant’s does not: each runs at its access level', async () => {
    const recorded = await start(client)
    const dev = await turn(recorded, {member: 'developer', text: 'stand-in: edit notes/dev.txt written by the developer\nstand-in: say done'})
    expect(dev.final).toMatchObject({status: 'done', text: 'done'})
    expect(readFileSync(join(repo!.root, 'notes/dev.txt'), 'utf8')).toBe('written by the developer\n')
    const consultant = await turn(recorded, {member: 'consultant', text: 'stand-in: edit notes/consultant.txt written by the consultant\nstand-in: say done'})
    expect(consultant.final).toMatchObject({status: 'done'})
    expect(existsSync(join(repo!.root, 'notes/consultant.txt'))).toBe(false)

    expect(recorded.of('chat.turn.started', dev.sent.turn_id)[0].data).toMatchObject({client, access: 'edit'})
    expect(recorded.of('chat.turn.started', consultant.sent.turn_id)[0].data).toMatchObject({client, access: 'read'})
    const devTools = recorded.of('chat.tool', dev.sent.turn_id).map((event) => event.data)
    expect(devTools.at(-1)).toMatchObject({status: 'done', summary: expect.stringContaining('notes/dev.txt')})
    const consultantTools = recorded.of('chat.tool', consultant.sent.turn_id).map((event) => event.data)
    // claude's read level removes the Edit tool outright; codex's sandbox and gemini's policy refuse it.
    if (client === 'claude') expect(consultantTools).toEqual([])
    else expect(consultantTools.at(-1)).toMatchObject({status: 'failed', summary: expect.stringContaining('notes/consultant.txt')})

    const team = await served!.call('GET', '/team')
    expect(Object.fromEntries(team.body.members.map((member: {id: string; access: string}) => [member.id, member.access]))).toMatchObject({developer: 'edit', consultant: 'read'})
  })

  it('with `mcp: {developer: true}` the developer’s turn gets mesh mcp the way the CLI documents, and acts as the developer through it (issue 24)', async () => {
    const recorded = await start(client, {userClients: 'mcp: {developer: true}\n'})
    const create = 'stand-in: mcp task_create {"module": "api", "title": "From a turn", "status": "draft"}'
    const dev = await turn(recorded, {member: 'developer', text: `${create}\nstand-in: say done`})
    expect(dev.final.status, JSON.stringify(dev.final)).toBe('done')
    const created = /^mcp task_create: (\{.*\})$/m.exec(String(dev.final.text))
    expect(created, String(dev.final.text)).not.toBeNull()
    const id = JSON.parse(created![1]).id as string
    // The daemon's draft rule holds for the member, through MCP as everywhere.
    const move = await turn(recorded, {member: 'developer', text: `stand-in: mcp task_move {"id": "${id}", "status": "next"}\nstand-in: say tried`})
    expect(move.final.text).toMatch(/^mcp task_move: error operator_only: /m)
    const consultant = await turn(recorded, {member: 'consultant', text: `${create}\nstand-in: say done`})
    expect(consultant.final.text).toMatch(/^mcp task_create: no MCP server configured$/m)
  })

  it('an ask with the developer’s member token runs at read: the outside caller cannot make it edit', async () => {
    const recorded = await start(client, {exposure: 'external'})
    const token = (await served!.call('GET', '/team/developer/token')).body.token as string
    const asked = await served!.call('POST', '/team/developer/ask', {text: 'stand-in: edit notes/asked.txt planted by a caller\nstand-in: say sure'}, {authorization: `Bearer ${token}`, 'x-mesh-project': 'demo'})
    expect(asked.status).toBe(202)
    const started = await recorded.next((event) => event.type === 'chat.turn.started' && event.data.conv === asked.body.conv)
    expect(started.data).toMatchObject({origin: 'ask', access: 'read'})
    const final = await finalOf(recorded, String(started.data.turn_id))
    expect(final.data.status).toBe('done')
    expect(existsSync(join(repo!.root, 'notes/asked.txt'))).toBe(false)
  })

  it('streams the first text line to /events before the turn ends, then tool steps and the usage the client reported', async () => {
    const recorded = await start(client)
    const hold = join(scratch!, 'hold')
    const sent = await served!.send({member: 'developer', text: `stand-in: edit notes/a.txt a\nstand-in: say first line\nstand-in: say second line\nstand-in: hold ${hold}`})
    expect(sent.status).toBe(202)
    const first = await recorded.next((event) => event.type === 'chat.assistant.delta' && event.data.turn_id === sent.body.turn_id)
    // The stand-in is holding after its first line: the turn has not ended.
    expect((await served!.call('GET', `/chat/turns/${sent.body.turn_id}`)).body.status).toBe('running')
    expect(recorded.of('chat.assistant.final', sent.body.turn_id)).toEqual([])
    expect(first.data.text).toBe('first line')
    writeFileSync(hold, '')
    const final = await finalOf(recorded, sent.body.turn_id)
    expect(final.data).toMatchObject({status: 'done', text: 'first line\nsecond line'})
    expect(recorded.of('chat.assistant.delta', sent.body.turn_id).map((event) => event.data.text)).toEqual(['first line', 'second line'])
    expect(recorded.of('chat.tool', sent.body.turn_id).length).toBeGreaterThan(0)
    const expected = {
      claude: {input_tokens: 120, output_tokens: 30, cache_read_tokens: 1000, cache_write_tokens: 50, cost_usd: 0.0123},
      codex: {input_tokens: 2400, output_tokens: 60, cache_read_tokens: 2000, cache_write_tokens: null, cost_usd: null},
      gemini: {input_tokens: 1400, output_tokens: 100, cache_read_tokens: 600, cache_write_tokens: null, cost_usd: null},
    }[client]
    expect(final.data.usage).toMatchObject({...expected, tool_calls: 1, duration_ms: expect.any(Number)})
  })

  it('a first turn that crashed before the client confirmed its session is followed by a working one in a fresh session, said in the thread', async () => {
    const recorded = await start(client)
    const conv = 'c-crash-early'
    const crashed = await turn(recorded, {member: 'developer', conv, text: 'stand-in: crash before-init'})
    expect(crashed.final).toMatchObject({status: 'failed', reason: 'killed'})
    const next = await turn(recorded, {member: 'developer', conv, text: 'stand-in: say back again'})
    expect(next.final).toMatchObject({status: 'done', text: 'back again'})
    expect(recorded.of('chat.turn.started', next.sent.turn_id)[0].data).toMatchObject({resumed: false})
    const note = recorded.of('chat.session', next.sent.turn_id)
    expect(note.map((event) => event.data.text)).toEqual([expect.stringMatching(new RegExp(`the last turn failed before ${client} confirmed its session.*this turn starts a fresh session`))])
    // And the conversation goes on in the session the client confirmed.
    const third = await turn(recorded, {member: 'developer', conv, text: 'stand-in: say still here'})
    expect(third.final).toMatchObject({status: 'done', text: 'still here'})
    expect(recorded.of('chat.turn.started', third.sent.turn_id)[0].data).toMatchObject({resumed: true})
  })

  it('a first turn that crashed after the client confirmed its session is followed by one resuming it', async () => {
    const recorded = await start(client)
    const conv = 'm-developer'
    const crashed = await turn(recorded, {member: 'developer', conv, text: 'stand-in: crash after-init'})
    expect(crashed.final).toMatchObject({status: 'failed', reason: 'killed'})
    const next = await turn(recorded, {member: 'developer', conv, text: 'stand-in: say resumed'})
    expect(next.final).toMatchObject({status: 'done', text: 'resumed'})
    expect(recorded.of('chat.turn.started', next.sent.turn_id)[0].data).toMatchObject({resumed: true})
    expect(recorded.of('chat.session', next.sent.turn_id)).toEqual([])
  })
})

describe('a client the CLI itself refuses', () => {
  it('each stand-in refuses a wrong MCP server the way its CLI does (issue 24)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mesh-mcp-flags-'))
    const run = (cli: string, args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [join(STAND_IN_BIN, '..', `${cli}.mjs`), ...args], {input: 'hello', cwd: dir, encoding: 'utf8', env: {...process.env, ...standInEnv(dir), ...env}})
    try {
      const missing = run('claude', ['-p', '--mcp-config', join(dir, 'none.json'), '--model', 'opus'])
      expect([missing.status, missing.stderr]).toEqual([1, expect.stringContaining('MCP config file not found')])
      expect(run('claude', ['-p', '--mcp-config', '--model', 'opus']).stderr).toMatch(/option '--mcp-config <configs...>' argument missing/)
      expect(run('claude', ['-p', '--mcp-config', '{"mcpServers": {"mesh": {"args": []}}}', '--model', 'opus']).stderr).toMatch(/a server needs command, url or httpUrl/)
      expect(run('codex', ['exec', '-c', 'mcp_servers.mesh.command="node"', '-c', 'mcp_servers.mesh.args=node mcp', '-']).stderr).toMatch(/invalid type: "node mcp", expected a sequence in `mcp_servers`/)
      expect(run('codex', ['exec', '-c', 'mcp_servers.mesh.args=["mcp"]', '-']).stderr).toMatch(/invalid transport in `mcp_servers.mesh`/)
      writeFileSync(join(dir, 'settings.json'), '{not json')
      const gemini = run('gemini', ['--model', 'g'], {GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, 'settings.json')})
      expect([gemini.status, gemini.stderr]).toEqual([1, expect.stringContaining(`Error in ${join(dir, 'settings.json')}`)])
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('claude’s stream-json without --verbose ends the turn failed with claude’s own words', async () => {
    const recorded = await start('claude', {userClients: 'clients:\n  claude:\n    command: [claude, -p, --output-format, stream-json, "{access}"]\n    format: claude-stream\n'})
    const {final} = await turn(recorded, {member: 'developer', text: 'hello'})
    expect(final).toMatchObject({status: 'failed', reason: 'exit', detail: expect.stringContaining('--output-format=stream-json requires --verbose')})
  })
})
