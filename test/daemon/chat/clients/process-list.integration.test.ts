/**
 * Issue 18, deliverable 6: no project or asker text in the process list.
 * Another local user can read any process's arguments in /proc/<pid>/cmdline,
 * so a turn's client CLI must get the system prompt (member prompt, context
 * files, catalog) and the turn's text through stdin or a private file, never
 * as arguments. Run through the real binary and HTTP, with stand-ins of the
 * three CLIs on PATH that parse their real flags, read stdin as the real ones
 * do, and hang until released so their arguments can be read while they run.
 */
import {randomBytes} from 'node:crypto'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {frontmatter, makeRepo, TODAY, type FixtureRepo} from '../../../standard/fixtures.js'
import {serveProject, STAND_IN_BIN, standInEnv, type ServedProject} from './served.js'

let repo: FixtureRepo | undefined
let served: ServedProject | undefined
let scratch: string | undefined
afterEach(async () => {
  if (scratch) writeFileSync(join(scratch, 'release'), '')
  await served?.stop()
  repo?.cleanup()
  if (scratch) rmSync(scratch, {recursive: true, force: true})
  served = repo = scratch = undefined
})

const secret = (what: string) => `${what}-secret-${randomBytes(6).toString('hex')}`

async function reportOf(dir: string): Promise<Record<string, any>> {
  for (;;) {
    const done = readdirSync(dir).find((name) => name.endsWith('.json'))
    if (done) return JSON.parse(readFileSync(join(dir, done), 'utf8'))
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('a running turn’s client process', () => {
  it.each(['claude', 'codex', 'gemini'])('%s: its /proc/<pid>/cmdline holds no system prompt, context, catalog or turn text; it got them on stdin or from a private file', async (client) => {
    const texts = {prompt: secret('prompt'), context: secret('context'), catalog: secret('catalog'), ask: secret('ask')}
    repo = makeRepo({
      '.mesh/team/architect.md': frontmatter({id: 'architect', title: 'Coordinating architect', client, context: [], exposure: 'internal'}, `\nYou coordinate. ${texts.prompt} is your rule.\n`),
      '.mesh/team/developer.md': frontmatter({id: 'developer', title: 'Developer', client: 'claude', context: [], exposure: 'internal'}, `\n${texts.catalog} is what the developer does.\n`),
      '.mesh/context/overview.md': frontmatter({title: 'Overview', updated: TODAY}, `\nOverview: ${texts.context}.\n`),
    })
    scratch = mkdtempSync(join(tmpdir(), 'mesh-standin-'))
    const reports = join(scratch, 'reports')
    mkdirSync(reports)
    served = await serveProject(repo.root, {...standInEnv(scratch), STANDIN_REPORT_DIR: reports, STANDIN_RELEASE: join(scratch, 'release')})

    const sent = await served.send({text: `Please look at ${texts.ask}`, member: 'architect'})
    expect(sent.status).toBe(202)
    const report = await reportOf(reports)
    expect(report.cli).toBe(client)

    // What any local user sees of the running process.
    const cmdline = readFileSync(`/proc/${report.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    expect(cmdline[1]).toBe(`${STAND_IN_BIN}/../${client}.mjs`)
    for (const text of Object.values(texts)) expect(cmdline.join(' ')).not.toContain(text)

    // What the CLI itself was given: everything, through stdin or the system prompt file.
    const received = `${report.input}\n${report.system ?? ''}`
    for (const text of Object.values(texts)) expect(received).toContain(text)
    expect(report.input).toContain(texts.ask)
    if (client === 'claude') {
      expect(report.system).toContain(texts.prompt)
      const file: string = report.systemFile
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o700)
      expect(dirname(dirname(file))).toBe(join(repo.root, '.mesh', '.runtime', 'chat'))
    }

    writeFileSync(join(scratch, 'release'), '')
    const final = await served.finished(sent.body.turn_id)
    expect(final).toMatchObject({status: 'done', text: `${client} stand-in: answered`})
    // The private folder went with the turn.
    const chatRuntime = join(repo.root, '.mesh', '.runtime', 'chat')
    expect(readdirSync(chatRuntime).filter((name) => name.startsWith('private-'))).toEqual([])
    if (client === 'claude') expect(existsSync(report.systemFile)).toBe(false)
  })

  it('a private folder a killed daemon left behind is removed when the next daemon starts', async () => {
    repo = makeRepo({'.mesh/.runtime/chat/private-AbC123/system.md': 'left by a daemon killed mid-turn\n'})
    served = await serveProject(repo.root, {})
    expect(existsSync(join(repo.root, '.mesh/.runtime/chat/private-AbC123'))).toBe(false)
  })
})
