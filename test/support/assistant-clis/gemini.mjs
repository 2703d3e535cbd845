/**
 * Stand-in for Google's Gemini CLI `gemini`, as its docs/cli/cli-reference.md,
 * docs/cli/headless.md and docs/cli/session-management.md document it:
 * `-m/--model`, `-p/--prompt` (appended to stdin input; forces headless
 * mode), `-o/--output-format text|json|stream-json`, `--approval-mode
 * default|auto_edit|yolo|plan`, `-y/--yolo` (not with `--approval-mode`),
 * `-r/--resume <latest|index|session id>`. When stdin is not a terminal the
 * CLI runs headless and reads its input from stdin (it stops waiting for
 * piped input that has not started within 500 ms, as
 * packages/cli/src/utils/readStdin.ts does). An unknown option is refused
 * the way its parser (yargs, strict) does: `Unknown argument: x`, exit 1.
 *
 * With `stream-json` it prints the documented events (init, message,
 * tool_use, tool_result, result with stats; packages/core/src/output/
 * types.ts). An edit (`stand-in: edit`) is a `write_file` tool use, run
 * under `auto_edit` or `yolo`; in the default mode headless it is refused
 * ("ask_user … in non-interactive mode, this is treated as deny":
 * `Tool execution denied by policy.`, `policy_violation`). Sessions are
 * files under `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/` (default the
 * home folder); resuming one it does not have is `Error resuming session:
 * Invalid session identifier …`, exit 42. MCP servers come from the
 * settings files' `mcpServers` (docs/tools/mcp-server.md); only the system
 * settings file is modelled, at the path `GEMINI_CLI_SYSTEM_SETTINGS_PATH`
 * names (docs/cli/configuration.md): a missing file is no settings, one that
 * is not JSON is refused.
 */
import {createHash, randomUUID} from 'node:crypto'
import {join, resolve} from 'node:path'
import {die, directives, fail, home, printer, readNamed, reportAndWait, runMcpCalls, sessionStore, stdioServers, writeEdit} from './common.mjs'

const OPTIONS = {
  '--model': {short: '-m', value: true},
  '--prompt': {short: '-p', value: true},
  '--output-format': {short: '-o', value: true, choices: ['text', 'json', 'stream-json']},
  '--approval-mode': {value: true, choices: ['default', 'auto_edit', 'yolo', 'plan']},
  '--yolo': {short: '-y', value: false},
  '--resume': {short: '-r', value: true},
  '--debug': {short: '-d', value: false},
}
const SHORT = Object.fromEntries(Object.entries(OPTIONS).filter(([, spec]) => spec.short).map(([long, spec]) => [spec.short, long]))

const args = process.argv.slice(2)
const options = {}
const query = []
const unknown = []
for (let i = 0; i < args.length; i++) {
  const word = args[i]
  if (!word.startsWith('-')) {
    query.push(word)
    continue
  }
  const [name, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
  const long = SHORT[name] ?? name
  const spec = OPTIONS[long]
  if (!spec) {
    unknown.push(name.replace(/^-+/, ''))
    continue
  }
  if (!spec.value) {
    options[long] = true
    continue
  }
  const value = inline ?? args[++i]
  if (value === undefined) fail(`Not enough arguments following: ${long.slice(2)}`)
  if (spec.choices && !spec.choices.includes(value)) fail(`Invalid values:\n  Argument: ${long.slice(2)}, Given: "${value}", Choices: ${spec.choices.map((choice) => `"${choice}"`).join(', ')}`)
  options[long] = value
}
if (unknown.length > 0) fail(`Unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`)
if (query.length > 0 && options['--prompt'] !== undefined) fail('Cannot use both a positional prompt and the --prompt (-p) flag together')
if (options['--yolo'] && options['--approval-mode'] !== undefined) fail('Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.')

/** readStdin.ts: read to the end, but give up when nothing was piped within 500 ms. */
function readStdin() {
  return new Promise((done) => {
    let data = ''
    let waiting = setTimeout(() => finish(), 500)
    const finish = () => {
      if (waiting) clearTimeout(waiting)
      process.stdin.removeAllListeners()
      done(data)
    }
    process.stdin.setEncoding('utf8')
    process.stdin.on('readable', () => {
      let chunk
      while ((chunk = process.stdin.read()) !== null) {
        if (waiting) clearTimeout(waiting)
        waiting = null
        data += chunk
      }
    })
    process.stdin.on('end', finish)
  })
}

const headless = options['--prompt'] !== undefined || !process.stdin.isTTY
if (!headless) fail('gemini stand-in: only headless mode is modelled')
const stdin = process.stdin.isTTY ? '' : await readStdin()
const prompt = options['--prompt'] ?? query.join(' ')
const input = [stdin, prompt].filter((part) => part !== '').join('\n\n')
if (input.trim() === '') fail('No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.')

const chats = join(process.env.GEMINI_CLI_HOME || home(), '.gemini', 'tmp', createHash('sha256').update(process.cwd()).digest('hex'), 'chats')
const sessions = sessionStore(chats, (id) => `session-${id}.json`)
let session
if (options['--resume'] !== undefined) {
  session = options['--resume']
  if (!sessions.has(session)) {
    fail(`Error resuming session: Invalid session identifier "${session}".\n  Searched for sessions in ${chats}.\n  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.`, 42)
  }
} else {
  session = randomUUID()
  sessions.create(session)
}

let mcpServers = {}
const settingsPath = process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH
const settingsText = settingsPath ? readNamed(settingsPath) : null
if (settingsText !== null) {
  let settings
  try {
    settings = JSON.parse(settingsText)
  } catch (error) {
    fail(`Error in ${settingsPath}: ${error.message}\nPlease fix the configuration file(s) and try again.`)
  }
  if (settings.mcpServers !== undefined) mcpServers = stdioServers(settings.mcpServers, (why) => `Error in ${settingsPath}: ${why}\nPlease fix the configuration file(s) and try again.`)
}

await reportAndWait('gemini', {input, system: null, model: options['--model'] ?? null, session, mcpServers})
const plan = directives('gemini', input)
await runMcpCalls(plan, mcpServers)
if (plan.crash === 'before-init') die()

const mode = options['--yolo'] ? 'yolo' : (options['--approval-mode'] ?? 'default')
const format = options['--output-format'] ?? 'text'
const stream = format === 'stream-json'
const out = printer(plan)
const at = () => new Date().toISOString()
const model = options['--model'] ?? 'gemini-2.5-pro'
const started = Date.now()
if (stream) {
  await out.json({type: 'init', timestamp: at(), session_id: session, model})
  await out.json({type: 'message', timestamp: at(), role: 'user', content: input})
}
if (plan.crash === 'after-init') die()

let calls = 0
for (const edit of plan.edits) {
  calls++
  const id = `write_file-${Date.now()}-${calls}`
  if (stream) await out.json({type: 'tool_use', timestamp: at(), tool_name: 'write_file', tool_id: id, parameters: {file_path: resolve(edit.path), content: edit.text}})
  const granted = mode === 'auto_edit' || mode === 'yolo'
  if (granted) writeEdit(edit)
  if (stream) {
    await out.json(
      granted
        ? {type: 'tool_result', timestamp: at(), tool_id: id, status: 'success', output: `Successfully wrote to ${edit.path}`}
        : {type: 'tool_result', timestamp: at(), tool_id: id, status: 'error', error: {type: 'policy_violation', message: 'Tool execution denied by policy.'}},
    )
  }
}
for (const [index, line] of plan.say.entries()) {
  if (stream) await out.json({type: 'message', timestamp: at(), role: 'assistant', content: index < plan.say.length - 1 ? `${line}\n` : line, delta: true})
  await out.afterFirstAnswerLine()
}
const stats = {total_tokens: 1500, input_tokens: 1400, output_tokens: 100, cached: 600, input: 800, duration_ms: Date.now() - started, tool_calls: calls, models: {[model]: {total_tokens: 1500, input_tokens: 1400, output_tokens: 100, cached: 600, input: 800}}}
if (stream) await out.json({type: 'result', timestamp: at(), status: 'success', stats})
else if (format === 'json') process.stdout.write(JSON.stringify({session_id: session, response: plan.say.join('\n'), stats: {}}) + '\n')
else process.stdout.write(plan.say.join('\n') + '\n')
process.exit(0)
