/**
 * Stand-in for OpenAI Codex's `codex exec`, as `codex exec --help`
 * (openai/codex codex-rs/exec/src/cli.rs) and docs/exec.md document it:
 * `codex exec [OPTIONS] [PROMPT]` and `codex exec [OPTIONS] resume
 * <SESSION_ID> [PROMPT]`, with `-m/--model`, `-c/--config key=value`
 * (repeatable), `--skip-git-repo-check`, `--json`, `--color`,
 * `-s/--sandbox read-only|workspace-write|danger-full-access`,
 * `--dangerously-bypass-approvals-and-sandbox`; a PROMPT of `-`, or none,
 * reads the instructions from stdin. `-c` values are TOML (a value that does
 * not parse is a literal string); `mcp_servers.<name>.command` (a string)
 * and `.args` (an array of strings) add a stdio MCP server (docs/config.md),
 * and a wrong type is refused when the config loads. The options global to exec (`--json`,
 * `--model`, `--skip-git-repo-check`, `-c`, the bypass) may follow
 * `resume`; `--sandbox` may not. An unknown argument is refused the way its
 * parser (clap) does: `error: unexpected argument '--x' found`, exit 2.
 *
 * With `--json` it prints the documented JSONL events (thread.started,
 * turn.started, item.*, turn.completed with usage); without it, the last
 * message only. exec never asks for approval: an edit (`stand-in: edit`) is
 * a `file_change` item, applied under `workspace-write` (inside the working
 * folder) or `danger-full-access`, and `failed` under the default
 * `read-only` sandbox. Threads are files under `$CODEX_HOME/sessions/`
 * (default `~/.codex`); resuming one it does not have fails (exit 1).
 */
import {randomUUID} from 'node:crypto'
import {join} from 'node:path'
import {die, directives, fail, home, insideCwd, printer, readAllStdin, reportAndWait, runMcpCalls, sessionStore, writeEdit} from './common.mjs'

const USAGE = '\n\nUsage: codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]\n\nFor more information, try \'--help\'.'
const RESUME_USAGE = '\n\nUsage: codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]\n\nFor more information, try \'--help\'.'
const SANDBOXES = ['read-only', 'workspace-write', 'danger-full-access']
const OPTIONS = {
  '--model': {short: '-m', value: true, global: true},
  '--config': {short: '-c', value: true, repeat: true, global: true},
  '--skip-git-repo-check': {value: false, global: true},
  '--json': {value: false, global: true},
  '--color': {value: true, choices: ['always', 'never', 'auto'], meta: 'COLOR'},
  '--sandbox': {short: '-s', value: true, choices: SANDBOXES, meta: 'SANDBOX_MODE'},
  '--dangerously-bypass-approvals-and-sandbox': {value: false, global: true},
  '--last': {value: false, resumeOnly: true},
}
const SHORT = Object.fromEntries(Object.entries(OPTIONS).filter(([, spec]) => spec.short).map(([long, spec]) => [spec.short, long]))

const args = process.argv.slice(2)
if (args[0] !== 'exec' && args[0] !== 'e') fail('codex stand-in: only `codex exec` is modelled')
const options = {'--config': []}
const positional = []
let resume = false
for (let i = 1; i < args.length; i++) {
  const word = args[i]
  if (!word.startsWith('-') || word === '-') {
    if (!resume && positional.length === 0 && word === 'resume') {
      resume = true
      continue
    }
    if (positional.length >= (resume ? 2 : 1)) fail(`error: unexpected argument '${word}' found${resume ? RESUME_USAGE : USAGE}`, 2)
    positional.push(word)
    continue
  }
  const [name, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
  const long = SHORT[name] ?? name
  const spec = OPTIONS[long]
  // After `resume`, only the options marked global (and resume's own) are known to clap.
  if (!spec || (resume && !spec.global && !spec.resumeOnly) || (!resume && spec.resumeOnly)) fail(`error: unexpected argument '${name}' found${resume ? RESUME_USAGE : USAGE}`, 2)
  if (!spec.value) {
    options[long] = true
    continue
  }
  const value = inline ?? args[++i]
  if (value === undefined) fail(`error: a value is required for '${long} <VALUE>' but none was supplied${USAGE}`, 2)
  if (spec.choices && !spec.choices.includes(value)) fail(`error: invalid value '${value}' for '${long} <${spec.meta}>'\n  [possible values: ${spec.choices.join(', ')}]${USAGE}`, 2)
  if (long === '--config' && !value.includes('=')) fail(`Error: Invalid override (missing '='): ${value}`)
  if (spec.repeat) options[long].push(value)
  else options[long] = value
}

const [sessionArg, promptArg] = resume ? positional : [undefined, positional[0]]
let input = promptArg
if (promptArg === undefined || promptArg === '-') {
  if (process.stdin.isTTY) fail('No prompt provided. Either specify one as an argument or pipe the prompt into stdin.')
  input = await readAllStdin()
  if (input.trim() === '') fail('No prompt provided via stdin.')
}

const threads = sessionStore(join(process.env.CODEX_HOME || join(home(), '.codex'), 'sessions'), (id) => `rollout-${id}.jsonl`)
let thread
if (resume) {
  if (!sessionArg) fail(`error: a session id or --last is required${RESUME_USAGE}`, 2)
  thread = sessionArg
  if (!threads.has(thread)) fail(`Error: thread/resume: no rollout found for thread id ${thread}`)
} else {
  thread = randomUUID()
  threads.create(thread)
}

// `-c key=value`: the value parsed as TOML, else taken as a string (for these keys, TOML strings and arrays of strings read as JSON).
const tomlValue = (text) => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
const mcpServers = {}
for (const override of options['--config']) {
  const key = override.slice(0, override.indexOf('='))
  const match = /^mcp_servers\.([A-Za-z0-9_-]+)\.(command|args)$/.exec(key)
  if (!match) continue
  const value = tomlValue(override.slice(override.indexOf('=') + 1))
  const [, name, field] = match
  if (field === 'command' && typeof value !== 'string') fail(`Error loading config.toml: invalid type: ${JSON.stringify(value)}, expected a string in \`mcp_servers\``)
  if (field === 'args' && !(Array.isArray(value) && value.every((arg) => typeof arg === 'string'))) fail(`Error loading config.toml: invalid type: ${JSON.stringify(value)}, expected a sequence in \`mcp_servers\``)
  mcpServers[name] = {...(mcpServers[name] ?? {args: []}), [field]: value}
}
for (const [name, server] of Object.entries(mcpServers)) if (typeof server.command !== 'string') fail(`Error loading config.toml: invalid transport in \`mcp_servers.${name}\``)

await reportAndWait('codex', {input, system: null, model: options['--model'] ?? null, config: options['--config'], thread, mcpServers})
const plan = directives('codex', input)
await runMcpCalls(plan, mcpServers)
if (plan.crash === 'before-init') die()

const sandbox = options['--dangerously-bypass-approvals-and-sandbox'] ? 'danger-full-access' : (options['--sandbox'] ?? 'read-only')
const out = printer(plan)
const json = options['--json']
if (json) {
  await out.json({type: 'thread.started', thread_id: thread})
  await out.json({type: 'turn.started'})
}
if (plan.crash === 'after-init') die()

let item = 0
for (const edit of plan.edits) {
  const granted = sandbox === 'danger-full-access' || (sandbox === 'workspace-write' && insideCwd(edit.path) !== null)
  if (granted) writeEdit(edit)
  if (json) await out.json({type: 'item.completed', item: {id: `item_${item++}`, type: 'file_change', changes: [{path: edit.path, kind: 'update'}], status: granted ? 'completed' : 'failed'}})
}
const answer = plan.say.join('\n')
if (json) {
  await out.json({type: 'item.completed', item: {id: `item_${item++}`, type: 'reasoning', text: '**Answering**'}})
  await out.json({type: 'item.completed', item: {id: `item_${item++}`, type: 'agent_message', text: answer}})
  await out.afterFirstAnswerLine()
  await out.json({type: 'turn.completed', usage: {input_tokens: 2400, cached_input_tokens: 2000, output_tokens: 60}})
} else process.stdout.write(answer + '\n')
process.exit(0)
