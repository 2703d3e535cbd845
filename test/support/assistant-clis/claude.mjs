/**
 * Stand-in for Claude Code's `claude` in print mode, as
 * https://code.claude.com/docs/en/cli-reference and
 * https://code.claude.com/docs/en/headless document it: `-p/--print`,
 * `--model`, `--session-id <uuid>`, `-r/--resume <id>`,
 * `--append-system-prompt <text>` / `--append-system-prompt-file <path>`
 * (one or the other), `--system-prompt-file <path>`, `--output-format
 * text|json|stream-json`, `--verbose`, `--include-partial-messages`,
 * `--permission-mode <mode>`, `--allowedTools <tools...>`,
 * `--disallowedTools <tools...>`, `--dangerously-skip-permissions`,
 * `--mcp-config <configs...>` (JSON files or strings, each
 * `{"mcpServers": {…}}`; https://code.claude.com/docs/en/mcp) and
 * `--strict-mcp-config`. An
 * unknown option is refused the way its parser (commander) does: `error:
 * unknown option '--x'`, exit 1. In print mode the input is the prompt
 * argument and/or stdin when stdin is not a terminal; neither is `Error:
 * Input must be provided either through stdin or as a prompt argument when
 * using --print`. Refused as the real CLI refuses them (exit 1):
 * `--output-format stream-json` without `--verbose`; partial messages
 * without stream-json; a `--session-id` already used ("Session ID … is
 * already in use" — the id is taken as soon as the CLI starts, so also by a
 * run that died before answering); a `--resume` of a session it does not
 * have ("No conversation found with session ID: …").
 *
 * Its stream-json output is the documented one (system/init, stream_event
 * deltas with partial messages, assistant, user tool_result, result with
 * usage and total_cost_usd). An edit (`stand-in: edit`) is an `Edit` tool
 * use: a disallowed Edit is no tool at all (the model never sees it), an
 * edit under `acceptEdits`, `bypassPermissions` or an allowed Edit is
 * written, any other is refused in print mode ("Claude requested
 * permissions to write to …, but you haven't granted it yet.") and listed in
 * the result's `permission_denials`. Sessions are files under
 * `$CLAUDE_CONFIG_DIR/projects/<cwd>/` (default `~/.claude`).
 */
import {randomUUID} from 'node:crypto'
import {join, resolve} from 'node:path'
import {die, directives, fail, home, insideCwd, printer, readAllStdin, readNamed, reportAndWait, runMcpCalls, sessionStore, stdioServers, writeEdit} from './common.mjs'

const PERMISSION_MODES = ['acceptEdits', 'bypassPermissions', 'default', 'dontAsk', 'plan']
const OPTIONS = {
  '--print': {short: '-p', value: false},
  '--model': {value: true},
  '--session-id': {value: true},
  '--resume': {short: '-r', value: true},
  '--continue': {short: '-c', value: false},
  '--append-system-prompt': {value: true},
  '--append-system-prompt-file': {value: true},
  '--system-prompt': {value: true},
  '--system-prompt-file': {value: true},
  '--output-format': {value: true, choices: ['text', 'json', 'stream-json'], meta: 'format'},
  '--verbose': {value: false},
  '--include-partial-messages': {value: false},
  '--permission-mode': {value: true, choices: PERMISSION_MODES, meta: 'mode'},
  '--allowedTools': {value: 'variadic', alias: '--allowed-tools'},
  '--disallowedTools': {value: 'variadic', alias: '--disallowed-tools'},
  '--dangerously-skip-permissions': {value: false},
  '--mcp-config': {value: 'variadic'},
  '--strict-mcp-config': {value: false},
}
const ALIASES = Object.fromEntries(Object.entries(OPTIONS).flatMap(([long, spec]) => [...(spec.short ? [[spec.short, long]] : []), ...(spec.alias ? [[spec.alias, long]] : [])]))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const args = process.argv.slice(2)
const options = {'--allowedTools': [], '--disallowedTools': [], '--mcp-config': []}
const positional = []
for (let i = 0; i < args.length; i++) {
  const word = args[i]
  if (!word.startsWith('-') || word === '-') {
    positional.push(word)
    continue
  }
  const [name, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
  const long = ALIASES[name] ?? name
  const spec = OPTIONS[long]
  if (!spec) fail(`error: unknown option '${name}'`)
  if (spec.value === false) {
    options[long] = true
    continue
  }
  if (spec.value === 'variadic') {
    // commander: `<tools...>` takes every following argument up to the next option; each may be comma-separated.
    const values = inline !== undefined ? [inline] : []
    while (inline === undefined && i + 1 < args.length && !args[i + 1].startsWith('-')) values.push(args[++i])
    if (values.length === 0) fail(`error: option '${long} <${long === '--mcp-config' ? 'configs' : 'tools'}...>' argument missing`)
    if (long === '--mcp-config') options[long].push(...values)
    else options[long].push(...values.flatMap((value) => value.split(',')).map((tool) => tool.trim()).filter(Boolean))
    continue
  }
  const value = inline ?? args[++i]
  if (value === undefined) fail(`error: option '${long} <value>' argument missing`)
  if (spec.choices && !spec.choices.includes(value)) fail(`error: option '${long} <${spec.meta}>' argument '${value}' is invalid. Allowed choices are ${spec.choices.join(', ')}.`)
  options[long] = value
}

const format = options['--output-format'] ?? 'text'
if (!options['--print']) fail('claude stand-in: only print mode (-p) is modelled')
if (format === 'stream-json' && !options['--verbose']) fail('Error: When using --print, --output-format=stream-json requires --verbose')
if (options['--include-partial-messages'] && format !== 'stream-json') fail('Error: --include-partial-messages requires --print and --output-format=stream-json.')
if (options['--session-id'] !== undefined && !UUID.test(options['--session-id'])) fail('Error: Invalid session ID. Must be a valid UUID.')
if (options['--session-id'] !== undefined && (options['--resume'] !== undefined || options['--continue'])) fail('Error: --session-id cannot be used with --continue or --resume.')
if (options['--append-system-prompt'] !== undefined && options['--append-system-prompt-file'] !== undefined) fail('Error: Cannot use both --append-system-prompt and --append-system-prompt-file. Please use only one.')

let system = options['--append-system-prompt'] ?? null
if (options['--append-system-prompt-file'] !== undefined) {
  const path = resolve(options['--append-system-prompt-file'])
  system = readNamed(path)
  if (system === null) fail(`Error: Append system prompt file not found: ${path}`)
}
if (options['--system-prompt-file'] !== undefined) {
  const path = resolve(options['--system-prompt-file'])
  if (readNamed(path) === null) fail(`Error: System prompt file not found: ${path}`)
}

// Each --mcp-config value is a JSON string or a file holding one (https://code.claude.com/docs/en/cli-reference).
const mcpServers = {}
for (const config of options['--mcp-config']) {
  const text = config.trim().startsWith('{') ? config : readNamed(resolve(config))
  if (text === null) fail(`Error: Invalid MCP configuration:\nMCP config file not found: ${resolve(config)}`)
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch {
    fail(`Error: Invalid MCP configuration:\nMCP config is not a valid JSON`)
  }
  Object.assign(mcpServers, stdioServers(parsed.mcpServers, (why) => `Error: Invalid MCP configuration:\n${why}`))
}

const stdin = await readAllStdin()
const input = [positional.join(' '), stdin].filter((part) => part.trim() !== '').join('\n\n')
if (!input) fail('Error: Input must be provided either through stdin or as a prompt argument when using --print')

// Sessions: one file per id, under the project's folder of the CLI's config dir.
const sessions = sessionStore(join(process.env.CLAUDE_CONFIG_DIR || join(home(), '.claude'), 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-')), (id) => `${id}.jsonl`)
let session
if (options['--resume'] !== undefined) {
  session = options['--resume']
  if (!sessions.has(session)) fail(`No conversation found with session ID: ${session}`)
} else {
  session = options['--session-id'] ?? randomUUID()
  if (sessions.has(session)) fail(`Error: Session ID ${session} is already in use.`)
  sessions.create(session)
}

await reportAndWait('claude', {input, system, systemFile: options['--append-system-prompt-file'] ?? null, session, mcpServers})
const plan = directives('claude', input)
await runMcpCalls(plan, mcpServers)
if (plan.crash === 'before-init') die()

const mode = options['--dangerously-skip-permissions'] ? 'bypassPermissions' : (options['--permission-mode'] ?? 'default')
const denied = (tool) => options['--disallowedTools'].some((rule) => rule === tool)
const allowed = (tool) => options['--allowedTools'].some((rule) => rule === tool)
const out = printer(plan)
const stream = format === 'stream-json'
const partial = options['--include-partial-messages']
const base = () => ({session_id: session, uuid: randomUUID()})
const started = Date.now()
const model = options['--model'] ?? 'claude-opus-4-1'
const message = (content, stop) => ({id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, usage: {input_tokens: 40, output_tokens: 10}})
const tools = ['Task', 'Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit', 'WebFetch'].filter((tool) => !denied(tool))

if (stream) await out.json({type: 'system', subtype: 'init', cwd: process.cwd(), tools, mcp_servers: Object.keys(mcpServers).map((name) => ({name, status: 'connected'})), model, permissionMode: mode, slash_commands: [], apiKeySource: 'none', output_style: 'default', ...base()})
if (plan.crash === 'after-init') die()

const permissionDenials = []
let turns = 1
for (const edit of plan.edits) {
  // A disallowed tool is removed from the model's context: it cannot even try.
  if (denied('Edit')) continue
  turns++
  const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`
  const target = resolve(edit.path)
  const input = {file_path: target, old_string: '', new_string: edit.text}
  if (stream) await out.json({type: 'assistant', message: message([{type: 'tool_use', id, name: 'Edit', input}], 'tool_use'), parent_tool_use_id: null, ...base()})
  const granted = mode === 'bypassPermissions' || ((mode === 'acceptEdits' || allowed('Edit')) && insideCwd(edit.path) !== null)
  if (granted) writeEdit(edit)
  else permissionDenials.push({tool_name: 'Edit', tool_use_id: id, tool_input: input})
  const result = granted ? `The file ${target} has been updated.` : `Claude requested permissions to write to ${target}, but you haven't granted it yet.`
  if (stream) await out.json({type: 'user', message: {role: 'user', content: [{tool_use_id: id, type: 'tool_result', content: result, is_error: !granted}]}, parent_tool_use_id: null, ...base()})
}

const answer = plan.say.join('\n')
if (stream && partial) {
  await out.json({type: 'stream_event', event: {type: 'message_start', message: message([], null)}, parent_tool_use_id: null, ...base()})
  await out.json({type: 'stream_event', event: {type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}}, parent_tool_use_id: null, ...base()})
  for (const [index, line] of plan.say.entries()) {
    await out.json({type: 'stream_event', event: {type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: index < plan.say.length - 1 ? `${line}\n` : line}}, parent_tool_use_id: null, ...base()})
    await out.afterFirstAnswerLine()
  }
  await out.json({type: 'stream_event', event: {type: 'content_block_stop', index: 0}, parent_tool_use_id: null, ...base()})
  await out.json({type: 'stream_event', event: {type: 'message_delta', delta: {stop_reason: 'end_turn'}, usage: {output_tokens: 30}}, parent_tool_use_id: null, ...base()})
  await out.json({type: 'stream_event', event: {type: 'message_stop'}, parent_tool_use_id: null, ...base()})
}
if (stream) {
  await out.json({type: 'assistant', message: message([{type: 'text', text: answer}], 'end_turn'), parent_tool_use_id: null, ...base()})
  if (!partial) await out.afterFirstAnswerLine()
}

const usage = {input_tokens: 120, cache_creation_input_tokens: 50, cache_read_input_tokens: 1000, output_tokens: 30, server_tool_use: {web_search_requests: 0}, service_tier: 'standard'}
const result = {type: 'result', subtype: 'success', is_error: false, duration_ms: Date.now() - started, duration_api_ms: Date.now() - started, num_turns: turns, result: answer, total_cost_usd: 0.0123, usage, permission_denials: permissionDenials, ...base()}
if (stream) await out.json(result)
else if (format === 'json') process.stdout.write(JSON.stringify(result) + '\n')
else process.stdout.write(answer + '\n')
process.exit(0)
