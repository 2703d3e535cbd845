/**
 * Stand-in for Claude Code's `claude` in print mode, as
 * https://code.claude.com/docs/en/cli-reference documents it: `-p/--print`,
 * `--model`, `--session-id <uuid>`, `-r/--resume <id>`,
 * `--append-system-prompt <text>` / `--append-system-prompt-file <path>`
 * (one or the other), `--system-prompt-file <path>`, `--output-format
 * text|json|stream-json`. An unknown option is refused the way its parser
 * (commander) does: `error: unknown option '--x'`, exit 1. In print mode the
 * input is the prompt argument and/or stdin when stdin is not a terminal;
 * neither is `Error: Input must be provided either through stdin or as a
 * prompt argument when using --print`. A missing prompt file is
 * `Error: Append system prompt file not found: <path>`.
 */
import {resolve} from 'node:path'
import {fail, readAllStdin, readNamed, reportAndHang} from './common.mjs'

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
  '--output-format': {value: true, choices: ['text', 'json', 'stream-json']},
  '--verbose': {value: false},
}
const SHORT = Object.fromEntries(Object.entries(OPTIONS).filter(([, spec]) => spec.short).map(([long, spec]) => [spec.short, long]))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const args = process.argv.slice(2)
const options = {}
const positional = []
for (let i = 0; i < args.length; i++) {
  const word = args[i]
  if (!word.startsWith('-') || word === '-') {
    positional.push(word)
    continue
  }
  const [name, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
  const long = SHORT[name] ?? name
  const spec = OPTIONS[long]
  if (!spec) fail(`error: unknown option '${name}'`)
  if (!spec.value) {
    options[long] = true
    continue
  }
  const value = inline ?? args[++i]
  if (value === undefined) fail(`error: option '${long} <value>' argument missing`)
  if (spec.choices && !spec.choices.includes(value)) fail(`error: option '${long} <format>' argument '${value}' is invalid. Allowed choices are ${spec.choices.join(', ')}.`)
  options[long] = value
}

if (!options['--print']) fail('claude stand-in: only print mode (-p) is modelled')
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

const stdin = await readAllStdin()
const input = [positional.join(' '), stdin].filter((part) => part.trim() !== '').join('\n\n')
if (!input) fail('Error: Input must be provided either through stdin or as a prompt argument when using --print')

await reportAndHang('claude', {input, system, systemFile: options['--append-system-prompt-file'] ?? null})
