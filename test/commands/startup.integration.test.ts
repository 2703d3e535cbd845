import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {HEAVY_PACKAGES, heavyModulesLoadedBy, packagesIn, recordLoads} from '../../bench/startup/heavy-modules.mjs'
import {runCli, spawnCli} from '../support/cli.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'

// Behaviour, not timing: the fast paths must not pull in the server, UI or database stacks.
describe('start-up loads no heavy package', () => {
  it('the recorder does see heavy packages when they are loaded (control)', () => {
    const control = recordLoads(['--input-type=module', '-e', HEAVY_PACKAGES.map((name) => `await import(${JSON.stringify(name)});`).join('')])
    expect(control.status).toBe(0)
    expect(control.heavy).toEqual(HEAVY_PACKAGES)
  })

  it('mesh --version answers before oclif loads', () => {
    const loads = heavyModulesLoadedBy(['--version'])
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.packages).not.toContain('@oclif/core')
    expect(loads.heavy).toEqual([])
  })

  it.each([[['validate', '--help']], [['task', 'create', '--help']], [['init', '--help']]])('mesh %j', (args) => {
    const loads = heavyModulesLoadedBy(args)
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.recorded).toBeGreaterThan(10)
    expect(loads.packages).toContain('@oclif/core')
    expect(loads.heavy).toEqual([])
  })

  it('mesh mcp --print-config loads neither a heavy package nor the MCP SDK (issue 24: the SDK loads when the server runs)', () => {
    const loads = heavyModulesLoadedBy(['mcp', '--print-config', 'claude'])
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.heavy).toEqual([])
    expect(loads.packages).not.toContain('@modelcontextprotocol/sdk')
  })
})

// Issue 21: the everyday reads answer on bin/run.js's quick path (src/cli/quick-run.ts), without oclif.
describe('the read commands with no daemon running', () => {
  let repo: FixtureRepo
  beforeAll(() => {
    repo = makeRepo()
  })

  it.each([[['task', 'list']], [['team', 'list']], [['daemon', 'status']]])('mesh %j loads neither oclif nor a heavy package', (args) => {
    const loads = heavyModulesLoadedBy([...args, '-C', repo.root])
    expect(loads.status, loads.stderr).toBe(args[0] === 'daemon' ? 1 : 0)
    expect(loads.recorded).toBeGreaterThan(1)
    expect(loads.packages).not.toContain('@oclif/core')
    expect(loads.heavy).toEqual([])
  })

  it('leaves to oclif what it does not plainly understand, which answers as before', async () => {
    expect(heavyModulesLoadedBy(['task', 'list', '--help']).packages).toContain('@oclif/core')
    const unknown = await runCli(['task', 'list', '--bogus', '-C', repo.root])
    expect(unknown.code).toBe(2)
    expect(unknown.errorText).toMatch(/Nonexistent flag: --bogus/)
    const missing = await runCli(['task', 'list', '-C', join(repo.root, 'no-such-folder')])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).not.toMatch(/\n\s+at /)
  })
})

// Issue 21: `mesh serve` answers /health before it loads a routes-only area (src/daemon/areas.ts) or ws.
describe('mesh serve loads an area on its first request', () => {
  let repo: FixtureRepo
  let logDir: string
  beforeAll(() => {
    repo = makeRepo()
    logDir = mkdtempSync(join(tmpdir(), 'mesh-serve-loads-'))
  })
  afterAll(() => rmSync(logDir, {recursive: true, force: true}))

  it('has not loaded ws, markdown-it or the IDE area when /health first answers; GET /login loads the IDE area', async () => {
    const log = join(logDir, 'loads.txt')
    const loaded = () => readFileSync(log, 'utf8').split('\n').filter(Boolean)
    const recorder = join(import.meta.dirname, '..', '..', 'bench', 'startup', 'record-loads.mjs')
    const serve = spawnCli(['serve', '--port', '0', '--json', '--log-level', 'warn'], {cwd: repo.root, nodeArgs: ['--import', recorder], env: {MESH_LOAD_LOG: log}})
    try {
      const {url} = JSON.parse(await serve.waitFor(/"event":"listening"/))
      expect((await fetch(`${url}/health`)).status).toBe(200)
      const atHealth = loaded()
      expect([...packagesIn(atHealth)]).toEqual(expect.arrayContaining(['koa']))
      for (const name of ['ws', 'markdown-it']) expect([...packagesIn(atHealth)]).not.toContain(name)
      // The area itself (its face and its login); the state area shares some of its rendering files.
      const ideArea = (urls: string[]) => urls.filter((url) => /\/dist\/daemon\/ide\/(index|login)\.js$/.test(url))
      expect(ideArea(atHealth)).toEqual([])
      expect((await fetch(`${url}/login`)).status).toBeLessThan(500)
      expect(ideArea(loaded())).toHaveLength(2)
    } finally {
      await serve.stop()
    }
  })
})
