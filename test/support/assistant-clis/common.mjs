/**
 * What the stand-ins of the assistant CLIs (claude, codex, gemini) share: a
 * usage error the way each CLI prints one, reading stdin to its end, and the
 * report a test reads while the process runs. Each stand-in parses exactly
 * the flags its real CLI documents for headless use (a subset: anything else
 * is refused as the real parser refuses an unknown flag), takes its input
 * the way the real CLI does, then reports and hangs on purpose until the test
 * releases it, so the test can read /proc/<pid>/cmdline of a running turn.
 *
 * Environment: STANDIN_REPORT_DIR (where `<cli>-<pid>.json` goes: pid,
 * argv, the input it read, the system prompt file's text), STANDIN_RELEASE
 * (a file whose appearance lets the stand-in answer and exit 0; without it,
 * it hangs until killed).
 */
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

export function fail(message, code = 1) {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n')
  process.exit(code)
}

/** All of stdin as text ('' when it is a terminal). */
export async function readAllStdin() {
  if (process.stdin.isTTY) return ''
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** Reports what the CLI was given, then answers once released (or hangs until killed). */
export async function reportAndHang(cli, given) {
  const dir = process.env.STANDIN_REPORT_DIR
  if (dir) {
    const file = join(dir, `${cli}-${process.pid}.json`)
    writeFileSync(file + '.tmp', JSON.stringify({cli, pid: process.pid, argv: process.argv.slice(2), ...given}))
    renameSync(file + '.tmp', file)
  }
  const release = process.env.STANDIN_RELEASE
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      if (release && existsSync(release)) {
        clearInterval(timer)
        resolve()
      }
    }, 25)
  })
  process.stdout.write(`${cli} stand-in: answered\n`)
  process.exit(0)
}

/** The text of a file a flag names, or null when it does not exist. */
export function readNamed(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : null
}
