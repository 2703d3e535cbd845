/**
 * What the stand-ins of the assistant CLIs (claude, codex, gemini) share: a
 * usage error the way each CLI prints one, reading stdin to its end, the
 * report a test reads while the process runs, the "model" each plays, and
 * the session store each keeps. Each stand-in parses exactly the flags its
 * real CLI documents for headless use (a subset: anything else is refused as
 * the real parser refuses an unknown flag), takes its input the way the real
 * CLI does, refuses what the real one refuses (a session id already used, a
 * session it does not have, stream output without its required flags), and
 * edits a file only when its permission flags let the real CLI do so.
 *
 * The "model": the input's lines `stand-in: <directive>` say what it does —
 *   stand-in: say <text>             the answer (default "<cli> stand-in: answered"); repeatable, one line each
 *   stand-in: edit <path> <text>     try to write <text> to <path> (relative to the working folder)
 *   stand-in: delay <ms>             pause before each stream line (default 20)
 *   stand-in: hold <path>            after the first line of the answer, wait until <path> exists
 *   stand-in: crash before-init      die by SIGKILL once the session is registered, before saying so
 *   stand-in: crash after-init       die by SIGKILL right after confirming the session
 *   stand-in: mcp <tool> <json>      call <tool> of the MCP server the CLI was given (its documented way:
 *                                    claude --mcp-config, codex -c mcp_servers.*, gemini's settings file)
 *                                    with the SDK's client; the answer gets a line `mcp <tool>: <result>`
 *
 * Environment: STANDIN_REPORT_DIR (where `<cli>-<pid>.json` goes: pid,
 * argv, the input it read, the system prompt file's text), STANDIN_RELEASE
 * (a file whose appearance lets the stand-in answer; without it, it answers
 * at once — with it set, it waits until the file appears). Sessions are kept
 * where each real CLI keeps them (CLAUDE_CONFIG_DIR, CODEX_HOME,
 * GEMINI_CLI_HOME, else the home folder); tests point those at a scratch
 * folder.
 */
import {existsSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname, isAbsolute, join, relative, resolve} from 'node:path'

export function fail(message, code = 1) {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n')
  process.exit(code)
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms))

/** All of stdin as text ('' when it is a terminal). */
export async function readAllStdin() {
  if (process.stdin.isTTY) return ''
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

const until = async (path) => {
  while (!existsSync(path)) await sleep(25)
}

/** Reports what the CLI was given, then waits for STANDIN_RELEASE when the test set one. */
export async function reportAndWait(cli, given) {
  const dir = process.env.STANDIN_REPORT_DIR
  if (dir) {
    const file = join(dir, `${cli}-${process.pid}.json`)
    writeFileSync(file + '.tmp', JSON.stringify({cli, pid: process.pid, argv: process.argv.slice(2), ...given}))
    renameSync(file + '.tmp', file)
  }
  if (process.env.STANDIN_RELEASE) await until(process.env.STANDIN_RELEASE)
}

/** The text of a file a flag names, or null when it does not exist. */
export function readNamed(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : null
}

/** What the input asks the stand-in to do. */
export function directives(cli, input) {
  const plan = {say: [], edits: [], delayMs: 20, hold: null, crash: null, mcp: []}
  for (const line of input.split('\n')) {
    const match = /^stand-in:\s*([a-z-]+)\s*(.*)$/.exec(line.trim())
    if (!match) continue
    const [, verb, rest] = match
    if (verb === 'say') plan.say.push(rest)
    else if (verb === 'edit') {
      const [path, ...text] = rest.split(' ')
      plan.edits.push({path, text: text.join(' ')})
    } else if (verb === 'delay') plan.delayMs = Number(rest)
    else if (verb === 'hold') plan.hold = rest
    else if (verb === 'crash') plan.crash = rest
    else if (verb === 'mcp') {
      const [tool, ...json] = rest.split(' ')
      plan.mcp.push({tool, args: json.length ? JSON.parse(json.join(' ')) : {}})
    }
  }
  if (plan.say.length === 0) plan.say.push(`${cli} stand-in: answered`)
  return plan
}

/** Prints one line of output after the plan's delay; waits for `hold` once, after the first answer line. */
export function printer(plan) {
  let held = false
  return {
    async line(text) {
      if (plan.delayMs > 0) await sleep(plan.delayMs)
      process.stdout.write(text + '\n')
    },
    json(value) {
      return this.line(JSON.stringify(value))
    },
    async afterFirstAnswerLine() {
      if (held || !plan.hold) return
      held = true
      await until(plan.hold)
    },
  }
}

export function die() {
  process.kill(process.pid, 'SIGKILL')
}

/** A path inside the working folder, or null (an edit outside the workspace). */
export function insideCwd(path) {
  const full = resolve(path)
  const rel = relative(process.cwd(), full)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? full : null
}

/** Performs an edit the flags allow. */
export function writeEdit(edit) {
  const full = resolve(edit.path)
  mkdirSync(dirname(full), {recursive: true})
  writeFileSync(full, edit.text + '\n')
  return full
}

/** A folder of session files: `has(id)`, `create(id)`. */
export function sessionStore(dir, name = (id) => `${id}.json`) {
  return {
    dir,
    has: (id) => existsSync(join(dir, name(id))),
    create(id) {
      mkdirSync(dir, {recursive: true})
      writeFileSync(join(dir, name(id)), JSON.stringify({id, cwd: process.cwd(), created: new Date().toISOString()}) + '\n')
    },
  }
}

/** The home folder the stand-ins keep state under when no CLI-specific variable says otherwise. */
export const home = () => process.env.HOME || '/tmp'

/**
 * The stdio servers of an `mcpServers` object (claude's --mcp-config, gemini's settings): `{name: {command, args?}}`;
 * a server without `command` (nor `url`/`httpUrl`) is refused with `why`.
 */
export function stdioServers(value, why) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(why('mcpServers must be an object'))
  const servers = {}
  for (const [name, server] of Object.entries(value)) {
    if (!server || typeof server !== 'object') fail(why(`mcpServers.${name} must be an object`))
    if (typeof server.command !== 'string' && typeof server.url !== 'string' && typeof server.httpUrl !== 'string') fail(why(`mcpServers.${name}: a server needs command, url or httpUrl`))
    if (server.args !== undefined && !(Array.isArray(server.args) && server.args.every((arg) => typeof arg === 'string'))) fail(why(`mcpServers.${name}.args must be an array of strings`))
    if (typeof server.command === 'string') servers[name] = {command: server.command, args: server.args ?? []}
  }
  return servers
}

/** Runs the plan's `mcp` calls against the stdio servers the CLI was given, as the real CLI's MCP client would; the results lead the answer. */
export async function runMcpCalls(plan, servers) {
  if (plan.mcp.length === 0) return
  const [name] = Object.keys(servers)
  if (!name) {
    plan.say.unshift(...plan.mcp.map((call) => `mcp ${call.tool}: no MCP server configured`))
    return
  }
  const [{Client}, {StdioClientTransport}] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js')])
  const client = new Client({name: 'stand-in', version: '1.0.0'})
  await client.connect(new StdioClientTransport({...servers[name], cwd: process.cwd(), stderr: 'ignore'}))
  const lines = []
  for (const call of plan.mcp) {
    const answer = await client.callTool({name: call.tool, arguments: call.args})
    lines.push(`mcp ${call.tool}: ${answer.isError ? 'error ' : ''}${answer.content.map((part) => part.text).join('')}`)
  }
  await client.close()
  plan.say.unshift(...lines)
}
