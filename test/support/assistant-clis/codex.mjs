/**
 * Stand-in for OpenAI Codex's `codex exec`, as `codex exec --help`
 * (openai/codex codex-rs/exec/src/cli.rs) documents it: `codex exec [OPTIONS]
 * [PROMPT]` with `-m/--model`, `-c/--config key=value` (repeatable),
 * `--skip-git-repo-check`, `--json`, `--color`; a PROMPT of `-`, or none,
 * reads the instructions from stdin. An unknown argument is refused the way
 * its parser (clap) does: `error: unexpected argument '--x' found`, exit 2.
 */
import {fail, readAllStdin, reportAndHang} from './common.mjs'

const USAGE = '\n\nUsage: codex exec [OPTIONS] [PROMPT]\n\nFor more information, try \'--help\'.'
const OPTIONS = {
  '--model': {short: '-m', value: true},
  '--config': {short: '-c', value: true, repeat: true},
  '--skip-git-repo-check': {value: false},
  '--json': {value: false},
  '--color': {value: true, choices: ['always', 'never', 'auto']},
}
const SHORT = Object.fromEntries(Object.entries(OPTIONS).filter(([, spec]) => spec.short).map(([long, spec]) => [spec.short, long]))

const args = process.argv.slice(2)
if (args[0] !== 'exec' && args[0] !== 'e') fail('codex stand-in: only `codex exec` is modelled')
const options = {'--config': []}
let prompt
for (let i = 1; i < args.length; i++) {
  const word = args[i]
  if (!word.startsWith('-') || word === '-') {
    if (prompt !== undefined) fail(`error: unexpected argument '${word}' found${USAGE}`, 2)
    prompt = word
    continue
  }
  const [name, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
  const long = SHORT[name] ?? name
  const spec = OPTIONS[long]
  if (!spec) fail(`error: unexpected argument '${name}' found${USAGE}`, 2)
  if (!spec.value) {
    options[long] = true
    continue
  }
  const value = inline ?? args[++i]
  if (value === undefined) fail(`error: a value is required for '${long} <VALUE>' but none was supplied${USAGE}`, 2)
  if (spec.choices && !spec.choices.includes(value)) fail(`error: invalid value '${value}' for '${long} <COLOR>'${USAGE}`, 2)
  if (long === '--config' && !value.includes('=')) fail(`Error: Invalid override (missing '='): ${value}`)
  if (spec.repeat) options[long].push(value)
  else options[long] = value
}

let input = prompt
if (prompt === undefined || prompt === '-') {
  if (process.stdin.isTTY) fail('No prompt provided. Either specify one as an argument or pipe the prompt into stdin.')
  input = await readAllStdin()
  if (input.trim() === '') fail('No prompt provided via stdin.')
}

await reportAndHang('codex', {input, system: null, model: options['--model'] ?? null, config: options['--config']})
