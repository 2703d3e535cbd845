/**
 * For the registry commands' failure tests: a web server that is not a mesh
 * registry (each first path segment answers in its own wrong way), the
 * credentials `mesh register` would leave behind, and what every failure must
 * look like (exit code, no stack trace, no secret).
 */
import {once} from 'node:events'
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, expect} from 'vitest'
import type {CliResult} from './cli.js'

/** An api_key no output may ever show. */
export const SECRET = 'sk_live_do_not_print_me_0123456789'

export interface Impostor {
  url: string
  /** `/flaky` hands out its one page of messages again. */
  resetFlaky(): void
  close(): void
}

/**
 * `/html` and `/shape` and anything else (JSON null) answer every call wrongly;
 * `/tokens-only` mints tokens but is a plain web server otherwise (the
 * WebSocket upgrade included); `/flaky` mints tokens, serves one page of
 * messages, then fails with 500.
 */
export async function startImpostor(): Promise<Impostor> {
  let flakyPages = 0
  const server = createServer((req, res) => {
    const [, kind] = req.url!.split('/')
    if (kind === 'tokens-only') {
      if (req.url!.endsWith('/token')) return void res.writeHead(200, {'content-type': 'application/json'}).end('{"token":"t"}')
      return void res.writeHead(200, {'content-type': 'text/html'}).end('<html></html>')
    }
    if (kind === 'flaky') {
      if (req.url!.endsWith('/token')) return void res.writeHead(200, {'content-type': 'application/json'}).end('{"token":"t"}')
      if (flakyPages++ === 0) {
        const page = [1, 2].map((id) => ({id, ts: new Date().toISOString(), from: 'beta', payload: {n: id}}))
        return void res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({messages: page}))
      }
      return void res.writeHead(500, {'content-type': 'text/plain'}).end('boom')
    }
    if (kind === 'html') return void res.writeHead(200, {'content-type': 'text/html'}).end('<html><body>Welcome</body></html>')
    if (kind === 'shape') return void res.writeHead(200, {'content-type': 'application/json'}).end('{"hello":"world"}')
    res.writeHead(200, {'content-type': 'application/json'}).end('null')
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as {port: number}).port}`,
    resetFlaky: () => (flakyPages = 0),
    close: () => server.close(),
  }
}

/** A profile and an api_key file (SECRET) as `mesh register` leaves them, without a registry. */
export async function registeredFrom(creds: string, registry: string, keyMode = 0o600) {
  await mkdir(creds, {recursive: true, mode: 0o700})
  const profile = {registry, pubkey: null, did: null, handle: `${registry}/agent/alpha`, secrets: 'file', registered_at: new Date().toISOString()}
  await writeFile(join(creds, 'agents.json'), JSON.stringify({version: 1, agents: {alpha: profile}}))
  const file = join(creds, `api_key.alpha@${new URL(registry).host.replace(':', '~3a~')}`)
  await writeFile(file, SECRET, {mode: keyMode})
  await chmod(file, keyMode)
}

/** What every failure must look like. */
export function expectCleanFailure(result: CliResult, exit: number) {
  expect(result.code, result.stderr).toBe(exit)
  const all = result.stdout + result.stderr
  expect(all).not.toMatch(/\n\s+at /)
  expect(all).not.toMatch(/TypeError|node_modules|\/src\/|\/dist\//)
  expect(all).not.toContain(SECRET)
  expect(all).not.toContain('hunter2')
}

/** The JSON error of a --json run: stdout is one document, or NDJSON whose last line is the error. */
export function jsonError(stdout: string): {code: string; message: string} {
  try {
    return JSON.parse(stdout).error
  } catch {
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line))
    return lines.at(-1).error
  }
}

/** The environment the CLI error tests run with: file secrets, no registry, api key or credentials folder from the tester. */
export const ERROR_TEST_ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}

/**
 * Registers the hooks of a CLI error-test file: an impostor registry for the
 * whole file (`fake()` once started) and temp workspaces
 * (`workspace()`: a folder and its `creds` subfolder) removed after each test.
 */
export function errorTestHooks(options: {impostor?: boolean} = {}) {
  const dirs: string[] = []
  let fake: Impostor | undefined
  if (options.impostor) {
    beforeAll(async () => {
      fake = await startImpostor()
    })
    afterAll(() => fake?.close())
  }
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
  })
  return {
    fake: () => fake!,
    async workspace() {
      const dir = await mkdtemp(join(tmpdir(), 'mesh-errors-'))
      dirs.push(dir)
      return {dir, creds: join(dir, 'creds')}
    },
  }
}
