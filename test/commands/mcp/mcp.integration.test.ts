/**
 * `mesh mcp` as a real MCP client uses it (issue 24, bars): the SDK's own
 * client spawns the built binary over stdio in a temp project with a running
 * daemon and a script-client team, and offline in a project with none.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, cliEnv, runCli} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

/** The budget of the whole tools/list answer, in tokens (issue 24). */
const TOOLS_LIST_TOKEN_BUDGET = 5_000
/**
 * Token estimate: characters / 4 of the answer's JSON, the usual rule of
 * thumb for English text and JSON with OpenAI's and Anthropic's BPE
 * tokenizers (a rough estimate, not a tokenizer run).
 */
const estimateTokens = (text: string) => Math.ceil(text.length / 4)

async function connect(cwd: string, args: string[] = []): Promise<Client> {
  const client = new Client({name: 'mesh-test', version: '1.0.0'})
  await client.connect(new StdioClientTransport({command: process.execPath, args: [BIN, 'mcp', ...args], cwd, env: cliEnv() as Record<string, string>, stderr: 'pipe'}))
  return client
}

type Answer = {content: Array<{type: string; text: string}>; isError?: boolean}
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ok: boolean; text: string; value: any}> {
  const answer = (await client.callTool({name, arguments: args})) as Answer
  const text = answer.content.map((part) => part.text).join('')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  return {ok: !answer.isError, text, value}
}

describe('mesh mcp with the daemon running', () => {
  let team: ServedTeam
  let operator: Client
  beforeAll(async () => {
    team = await serveTeam([
      {id: 'developer', replies: [], default: {say: 'developer here: {{text}}'}},
      {id: 'reviewer', replies: [], default: {say: 'reviewed'}},
    ])
    operator = await connect(team.repo.root)
  })
  afterAll(async () => {
    await operator?.close()
    await team?.stop()
  })

  it('lists its tools in under 5,000 tokens (chars/4)', async () => {
    const {tools} = await operator.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['context_read', 'queue_add', 'task_create', 'task_list', 'task_move', 'task_show', 'team_ask', 'team_delegate', 'team_list', 'timeline_read', 'validate'].sort(),
    )
    const size = JSON.stringify({tools})
    const tokens = estimateTokens(size)
    console.log(`mesh mcp tools/list: ${tools.length} tools, ${size.length} chars ≈ ${tokens} tokens (chars/4; budget ${TOOLS_LIST_TOKEN_BUDGET})`)
    expect(tokens).toBeLessThan(TOOLS_LIST_TOKEN_BUDGET)
  })

  it('creates a task, moves it, and reads it back', async () => {
    const created = await call(operator, 'task_create', {module: 'api', title: 'Login route', priority: 'high'})
    expect(created.ok, created.text).toBe(true)
    expect(created.value.id).toMatch(/^API\d+$/)
    const moved = await call(operator, 'task_move', {id: created.value.id, status: 'next'})
    expect(moved.ok, moved.text).toBe(true)
    expect(moved.value).toMatchObject({id: created.value.id, to: 'next', changed: true})
    const listed = await call(operator, 'task_list', {status: ['next'], module: 'api'})
    expect(listed.value.tasks).toContainEqual(expect.objectContaining({id: created.value.id, title: 'Login route', status: 'next'}))
    const shown = await call(operator, 'task_show', {id: created.value.id})
    expect(shown.value.frontmatter).toMatchObject({status: 'next', priority: 'high'})
  })

  it('asks a script-client member and returns its answer, then reads that conversation from the timeline', async () => {
    const asked = await call(operator, 'team_ask', {member: 'developer', text: 'ping'})
    expect(asked.ok, asked.text).toBe(true)
    expect(asked.value).toMatchObject({member: 'developer', status: 'done', text: 'developer here: ping'})
    const thread = await call(operator, 'timeline_read', {conv: asked.value.conv})
    expect(thread.ok, thread.text).toBe(true)
    expect(thread.value.entries).toContainEqual(expect.objectContaining({type: 'chat.assistant.final', text: 'developer here: ping'}))
  })

  it('reads the team, the context tree and the validation report, and queues a message', async () => {
    const members = (await call(operator, 'team_list')).value.members
    expect(members).toContainEqual(expect.objectContaining({id: 'developer', client: 'script', access: 'edit'}))
    const tree = (await call(operator, 'context_read')).value
    expect(tree.files.map((file: {path: string}) => file.path)).toContain('context/stack.md')
    expect((await call(operator, 'context_read', {path: 'context/stack.md'})).value.text).toContain('Stack in a few words.')
    const outside = await call(operator, 'context_read', {path: 'context/../credentials/portal-token'})
    expect(outside.ok).toBe(false)
    expect(outside.text).toMatch(/^context_file_not_found/)
    expect((await call(operator, 'validate')).value).toHaveProperty('ok')
    const queued = await call(operator, 'queue_add', {conv: 'c-0123456789ab', text: 'later', member: 'developer'})
    expect(queued.ok, queued.text).toBe(true)
    expect(queued.value).toMatchObject({text: 'later', status: 'queued'})
  })

  it("refuses a member's draft promotion (the daemon's draft rule) and a read-level member's writes", async () => {
    const developer = await connect(team.repo.root, ['--member', 'developer'])
    try {
      const draft = await call(developer, 'task_create', {module: 'api', title: 'A proposal', status: 'draft'})
      expect(draft.ok, draft.text).toBe(true)
      const promoted = await call(developer, 'task_move', {id: draft.value.id, status: 'next'})
      expect(promoted.ok).toBe(false)
      expect(promoted.text).toMatch(/^operator_only: .*only the operator takes a task out of draft/)
      expect((await call(operator, 'task_show', {id: draft.value.id})).value.frontmatter.status).toBe('draft')
    } finally {
      await developer.close()
    }
    const reviewer = await connect(team.repo.root, ['--member', 'reviewer'])
    try {
      const refused = await call(reviewer, 'task_create', {module: 'api', title: 'Nope'})
      expect(refused.ok).toBe(false)
      expect(refused.text).toMatch(/^access_read_only: reviewer runs at access level read/)
      expect((await call(reviewer, 'task_list')).ok).toBe(true)
    } finally {
      await reviewer.close()
    }
  })
})

describe('mesh mcp with no daemon', () => {
  let repo: FixtureRepo
  let client: Client
  beforeAll(async () => {
    repo = makeRepo()
    client = await connect(repo.root)
  })
  afterAll(async () => {
    await client?.close()
    repo?.cleanup()
  })

  it('reads from the files and refuses writes, saying `mesh serve` is needed', async () => {
    const listed = await call(client, 'task_list')
    expect(listed.ok, listed.text).toBe(true)
    expect(listed.value.tasks.map((task: {id: string}) => task.id)).toEqual(['API1'])
    expect((await call(client, 'team_list')).value.members).toContainEqual(expect.objectContaining({id: 'architect'}))
    const created = await call(client, 'task_create', {module: 'api', title: 'Offline'})
    expect(created.ok).toBe(false)
    expect(created.text).toMatch(/^daemon_required: task_create needs the project's daemon, and none runs: start it with `mesh serve`/)
    const missing = await call(client, 'task_move', {id: 'API1'})
    expect(missing.ok).toBe(false)
    expect(missing.text).toMatch(/^invalid_arguments: task_move needs status/)
  })
})

describe('mesh mcp --print-config', () => {
  it('prints what each client takes: claude and gemini the mcpServers JSON, codex its config.toml table', async () => {
    const claude = await runCli(['mcp', '--print-config', 'claude', '--member', 'developer'])
    expect(claude.code, claude.stderr).toBe(0)
    expect(JSON.parse(claude.stdout.replace(/^#.*\n/, ''))).toEqual({mcpServers: {mesh: {command: 'mesh', args: ['mcp', '--member', 'developer']}}})
    const gemini = await runCli(['mcp', '--print-config', 'gemini'])
    expect(gemini.stdout).toMatch(/^# \.gemini\/settings\.json/)
    expect(JSON.parse(gemini.stdout.replace(/^#.*\n/, '')).mcpServers.mesh).toEqual({command: 'mesh', args: ['mcp']})
    expect((await runCli(['mcp', '--print-config', 'codex'])).stdout).toBe('# ~/.codex/config.toml\n[mcp_servers.mesh]\ncommand = "mesh"\nargs = ["mcp"]\n')
    const wrong = await runCli(['mcp', '--print-config', 'cursor'])
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toMatch(/Expected --print-config=cursor to be one of: claude, codex, gemini/)
  })
})
