/**
 * Stand-in for Google's Gemini CLI `gemini`, as its docs/cli/cli-reference.md
 * and docs/cli/headless.md document it: `-m/--model`, `-p/--prompt`
 * (appended to stdin input; forces headless mode), `-o/--output-format
 * text|json|stream-json`, `--approval-mode`. When stdin is not a terminal the
 * CLI runs headless and reads its input from stdin (it stops waiting for
 * piped input that has not started within 500 ms, as
 * packages/cli/src/utils/readStdin.ts does). An unknown option is refused the
 * way its parser (yargs, strict) does: `Unknown argument: x`, exit 1.
 */
import {fail, reportAndHang} from './common.mjs'

const OPTIONS = {
  '--model': {short: '-m', value: true},
  '--prompt': {short: '-p', value: true},
  '--output-format': {short: '-o', value: true, choices: ['text', 'json', 'stream-json']},
  '--approval-mode': {value: true, choices: ['default', 'auto_edit', 'yolo', 'plan']},
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

/** readStdin.ts: read to the end, but give up when nothing was piped within 500 ms. */
function readStdin() {
  return new Promise((resolve) => {
    let data = ''
    let waiting = setTimeout(() => done(), 500)
    const done = () => {
      if (waiting) clearTimeout(waiting)
      process.stdin.removeAllListeners()
      resolve(data)
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
    process.stdin.on('end', done)
  })
}

const headless = options['--prompt'] !== undefined || !process.stdin.isTTY
if (!headless) fail('gemini stand-in: only headless mode is modelled')
const stdin = process.stdin.isTTY ? '' : await readStdin()
const prompt = options['--prompt'] ?? query.join(' ')
const input = [stdin, prompt].filter((part) => part !== '').join('\n\n')
if (input.trim() === '') fail('No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.')

await reportAndHang('gemini', {input, system: null, model: options['--model'] ?? null})
