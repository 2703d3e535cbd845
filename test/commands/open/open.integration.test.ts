/**
 * `mesh open` (alias `mesh ide`; issue 22): a one-time login link from the
 * running daemon, opened in the default browser — `xdg-open` here, wrapped
 * by a stand-in that behaves as xdg-open(1) documents — or printed with
 * --print, and where no browser can be shown (no display: SSH, a console).
 */
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json, runCli} from '../../support/cli.js'
import {startHarness, type DaemonHarness} from '../../daemon/harness.js'
import {makeRepo} from '../../standard/fixtures.js'

let harness: DaemonHarness
let bin: string

/**
 * xdg-open(1): `xdg-open {file | URL}`, `--help`, `--manual`, `--version`;
 * exit 1 on a syntax error (no argument, or more than one), 0 once the
 * preferred application has it. This one records what it was given.
 */
const XDG_OPEN = `#!/bin/sh
case "$1" in --help|--manual|--version) echo "xdg-open 1.1.3"; exit 0;; esac
if [ "$#" -ne 1 ]; then echo "xdg-open: unexpected argument" >&2; exit 1; fi
printf '%s\\n' "$1" >> "$(dirname "$0")/opened.txt"
exit 0
`

beforeAll(async () => {
  harness = await startHarness()
  bin = mkdtempSync(join(tmpdir(), 'mesh-xdg-'))
  writeFileSync(join(bin, 'xdg-open'), XDG_OPEN)
  chmodSync(join(bin, 'xdg-open'), 0o755)
}, 30_000)

afterAll(async () => {
  await harness?.close()
  rmSync(bin, {recursive: true, force: true})
})

const withBrowser = () => ({PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99', WAYLAND_DISPLAY: ''})

describe('mesh open', () => {
  it('--print prints a link that logs in once', async () => {
    const result = await runCli(['open', '--print', '--dir', harness.repo.root], {env: withBrowser()})
    expect(result.code, result.stderr).toBe(0)
    const url = result.stdout.trim().split('\n').pop()!
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${harness.running.port}/login\\?code=`))
    expect(result.stdout).toContain('within 60 seconds')
    // --print never starts the browser.
    expect(() => readFileSync(join(bin, 'opened.txt'))).toThrow()
    const first = await fetch(url, {redirect: 'manual', headers: {accept: 'text/html'}})
    expect(first.status).toBe(303)
    expect((await fetch(url, {redirect: 'manual', headers: {accept: 'text/html'}})).status).toBe(401)
  })

  it('opens the link with the default browser, as `mesh ide` too', async () => {
    const result = await runCli(['ide', '--dir', harness.repo.root], {env: withBrowser()})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Opened the IDE in your browser')
    expect(result.stdout).not.toContain('code=')
    const opened = readFileSync(join(bin, 'opened.txt'), 'utf8').trim().split('\n')
    expect(opened).toHaveLength(1)
    expect((await fetch(opened[0], {redirect: 'manual', headers: {accept: 'text/html'}})).status).toBe(303)
  })

  it('prints the link where no browser can be shown, and --json gives it to a program', async () => {
    const console = await runCli(['open', '--dir', harness.repo.root], {env: {PATH: `${bin}:${process.env.PATH}`, DISPLAY: '', WAYLAND_DISPLAY: ''}})
    expect(console.code, console.stderr).toBe(0)
    expect(console.stdout).toContain('No browser could be opened here.')
    expect(console.stdout.trim().split('\n').pop()).toMatch(/\/login\?code=/)
    const machine = json(await runCli(['open', '--json', '--dir', harness.repo.root], {env: withBrowser()}))
    expect(machine).toMatchObject({url: expect.stringMatching(/\/login\?code=/), opened: false})
    expect(Date.parse(machine.expires_at)).toBeGreaterThan(Date.now())
    expect(readFileSync(join(bin, 'opened.txt'), 'utf8').trim().split('\n')).toHaveLength(1)
  })

  it('says so when an opener fails, and prints the link instead', async () => {
    writeFileSync(join(bin, 'xdg-open'), '#!/bin/sh\necho "xdg-open: no method available for opening" >&2\nexit 3\n')
    const result = await runCli(['open', '--dir', harness.repo.root], {env: withBrowser()})
    writeFileSync(join(bin, 'xdg-open'), XDG_OPEN)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('No browser could be opened here.')
    expect(result.stdout).toMatch(/\/login\?code=/)
  })

  it('needs the daemon', async () => {
    const repo = makeRepo()
    try {
      const result = await runCli(['open', '--print', '--dir', repo.root])
      expect(result.code).toBe(1)
      expect(result.errorText).toContain('mesh serve')
      expect(result.stderr).not.toMatch(/at .*\.js:\d+/)
    } finally {
      repo.cleanup()
    }
  })
})
