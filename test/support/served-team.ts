/**
 * A fixture project whose team is script-client members (test/daemon/chat/
 * script-team.ts), with its daemon running (`mesh serve --port 0`), for the
 * `mesh ask` and `mesh team watch` tests.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCli, spawnCli, type CliOptions, type CliResult, type SpawnedCli} from './cli.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'
import {writeScriptTeam, type ScriptMember} from '../daemon/chat/script-team.js'

export interface ServedTeam {
  repo: FixtureRepo
  url: string
  token: string
  mesh(args: string[], options?: CliOptions): Promise<CliResult>
  spawn(args: string[]): SpawnedCli
  /** A daemon route with the portal token; the body parsed. */
  call(method: string, path: string, body?: unknown): Promise<{status: number; body: any}>
  stop(): Promise<void>
}

export async function serveTeam(members: ScriptMember[], serveArgs: string[] = []): Promise<ServedTeam> {
  const repo = makeRepo()
  writeScriptTeam(repo.root, members)
  let server: SpawnedCli | undefined = spawnCli(['serve', '--port', '0', '--json', ...serveArgs], {cwd: repo.root})
  const started = await server.nextJson()
  if (started.event !== 'listening') throw new Error(`the daemon did not start: ${JSON.stringify(started)} ${server.stderr()}`)
  const url = started.url as string
  const token = readFileSync(join(repo.root, '.mesh/credentials/portal-token'), 'utf8').trim()
  const spawned: SpawnedCli[] = []
  return {
    repo,
    url,
    token,
    mesh: (args, options = {}) => runCli(args, {cwd: repo.root, ...options}),
    spawn(args) {
      const child = spawnCli(args, {cwd: repo.root})
      spawned.push(child)
      return child
    },
    async call(method, path, body) {
      const response = await fetch(`${url}${path}`, {method, headers: {authorization: `Bearer ${token}`, ...(body === undefined ? {} : {'content-type': 'application/json'})}, body: body === undefined ? undefined : JSON.stringify(body)})
      const text = await response.text()
      return {status: response.status, body: text ? JSON.parse(text) : undefined}
    },
    async stop() {
      await Promise.all(spawned.map((child) => child.stop()))
      await server?.stop()
      server = undefined
      repo.cleanup()
    },
  }
}
