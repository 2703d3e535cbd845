/**
 * The package as users get it (issue 21): `npm pack`, `npm install -g` of the
 * tarball under a temporary prefix, then the installed `mesh` — from clean
 * folders, with no folder of the checkout on PATH — scaffolds a project, runs
 * its daemon and a turn of the built-in script client, serves a registry with
 * its pages and their hashed files, and serves the echo example the package
 * ships, registered on that registry. Build first (`npm test` does).
 */
import {cp, mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runCli, spawnCli, startServer, type CliOptions, type RunningServer, type SpawnedCli} from '../support/cli.js'
import {installPackedPackage, type InstalledPackage} from './installed-package.js'

let installed: InstalledPackage
let registry: RunningServer | undefined
let agent: SpawnedCli | undefined
let project: string

// npm install -g fetches ~250 packages (from the local cache when it has them): well beyond the usual hook timeout.
beforeAll(async () => {
  installed = await installPackedPackage()
  project = await installed.tempDir('mesh-packed-project-')
}, 600_000)

afterAll(async () => {
  await agent?.stop()
  await registry?.stop()
  if (installed && project) await mesh(['daemon', 'stop'], project)
  await installed?.remove()
})

const options = (cwd: string): CliOptions => ({program: installed.program, cwd, env: installed.env})
const mesh = (args: string[], cwd: string) => runCli(args, options(cwd))

/** The `/site/…` files a page links to (stylesheets, scripts, icon, map). */
const siteFiles = (page: string) => [...new Set([...page.matchAll(/(?:href|src)="(\/site\/[^"]+)"/g)].map((match) => match[1]))]

/** Fetches a page as a browser does and every site file it links to; answers the page's status and each file's status and type. */
async function pageWithFiles(base: string, path: string) {
  const page = await fetch(base + path, {headers: {accept: 'text/html'}})
  const files = siteFiles(await page.text())
  const answers = await Promise.all(files.map(async (file) => {
    const answer = await fetch(base + file)
    await answer.arrayBuffer()
    return {file, status: answer.status, type: answer.headers.get('content-type') ?? ''}
  }))
  return {status: page.status, files: answers}
}

describe('the packed package, installed with npm install -g', () => {
  it('holds what mesh reads at run time (dist, the site files, schemas, the examples, the manifest) and none of the checkout build state', () => {
    for (const file of ['bin/run.js', 'oclif.manifest.json', 'dist/commands/init.js', 'dist/registry/site/browser/base.css', 'dist/registry/site/browser/network.js', 'dist/daemon/chat/script/main.js', 'schemas/public-card.schema.json', 'examples/echo/agent.json', 'examples/echo/handlers.mjs', 'examples/paid/handlers.mjs']) {
      expect(installed.files).toContain(file)
    }
    expect(installed.files.filter((file) => file.endsWith('.tsbuildinfo') || file.startsWith('src/') || file.startsWith('test/') || file === 'bin/dev.js')).toEqual([])
  })

  it('mesh init scaffolds the standard in a clean folder', async () => {
    const result = await mesh(['init', '--yes', '--name', 'Packed'], project)
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(await readFile(join(project, 'mesh.json'), 'utf8'))).toMatchObject({mesh_version: expect.any(Number)})
    const validated = await mesh(['validate'], project)
    expect(validated.code, validated.stdout + validated.stderr).toBe(0)
  })

  it('mesh serve --detach runs the daemon, a member on the built-in script client answers mesh ask, mesh daemon stop stops it', async () => {
    // The script client is a program inside the package (dist/daemon/chat/script/main.js): its path must hold once installed.
    const architect = join(project, '.mesh', 'team', 'architect.md')
    await writeFile(architect, (await readFile(architect, 'utf8')).replace(/^client: .*$/m, 'client: script').replace(/^model: .*$/m, 'model: hello'))
    await mkdir(join(project, '.mesh', 'scripts'))
    await writeFile(join(project, '.mesh', 'scripts', 'hello.yaml'), 'replies: []\ndefault: {say: Hello from the installed package.}\n')

    const started = await mesh(['serve', '--detach', '--port', '0'], project)
    expect(started.code, started.stderr).toBe(0)
    expect(started.stdout).toMatch(/mesh daemon serving .* on http:\/\/127\.0\.0\.1:\d+/)
    const asked = await mesh(['ask', 'architect', 'hello'], project)
    expect(asked.code, asked.stderr).toBe(0)
    expect(asked.stdout).toBe('Hello from the installed package.\n')
    const stopped = await mesh(['daemon', 'stop'], project)
    expect(stopped.code, stopped.stderr).toBe(0)
    expect((await mesh(['daemon', 'status'], project)).stdout).toMatch(/^stopped/)
  })

  it('mesh serve registry answers /health and its pages with their hashed stylesheets and scripts', async () => {
    const data = await installed.tempDir('mesh-packed-registry-')
    registry = await startServer('registry', ['--data', data], options(await installed.tempDir('mesh-packed-cwd-')))
    const health = await fetch(`${registry.url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ok: true, service: 'registry'})
    for (const path of ['/network', '/clusters']) {
      const {status, files} = await pageWithFiles(registry.url, path)
      expect(status, path).toBe(200)
      expect(files.map((file) => file.type.split(';')[0])).toEqual(expect.arrayContaining(['text/css', 'text/javascript']))
      for (const file of files) expect(file, path).toMatchObject({status: 200})
    }
  })

  it('mesh agent serve runs a copy of the shipped echo example, registered on the registry, and the agent page answers with its files', async () => {
    // A user copies the example out of the install: the agent writes its data folder (.mesh-agent/) inside its folder.
    const folder = join(await installed.tempDir('mesh-packed-agent-'), 'echo')
    await cp(join(installed.root, 'examples', 'echo'), folder, {recursive: true})
    const credentials = await installed.tempDir('mesh-packed-credentials-')
    agent = spawnCli(['agent', 'serve', folder, '--port', '0', '--registry', registry!.url, '--credentials', credentials], options(folder))
    const listening = JSON.parse(await agent.waitFor(/"event":"listening"/)) as {url: string}
    await agent.waitFor(/"event":"heartbeat"/)

    const echoed = await fetch(`${listening.url}/v1/echo`, {method: 'POST', headers: {'content-type': 'application/json'}, body: '{"message": "hello"}'})
    expect(echoed.status).toBe(200)
    expect(await echoed.json()).toEqual({message: 'hello'})

    const {status, files} = await pageWithFiles(registry!.url, '/agent/echo')
    expect(status).toBe(200)
    expect(files.map((file) => file.file)).toEqual(expect.arrayContaining([expect.stringMatching(/^\/site\/agent\.[0-9a-f]+\.css$/), expect.stringMatching(/^\/site\/agent\.[0-9a-f]+\.js$/)]))
    for (const file of files) expect(file).toMatchObject({status: 200})
  })
})
