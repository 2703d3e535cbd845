/**
 * A fixture project with its daemon running (`mesh serve --port 0`), for the
 * `mesh team` command tests: `mesh(args)` runs the built CLI in it.
 */
import {parse} from 'yaml'
import {runCli, spawnCli, type CliOptions, type CliResult, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

export interface ServedProject {
  repo: FixtureRepo
  /** The daemon's base URL. */
  url: string
  mesh(args: string[], options?: CliOptions): Promise<CliResult>
  /** The member tokens file as the daemon wrote it (`{}` when there is none). */
  tokens(): Record<string, string>
  stop(): Promise<void>
}

/** `serve` adds flags to `mesh serve` and variables to its environment. */
export async function serveProject(extra: Record<string, string> = {}, serve: {args?: string[]; env?: NodeJS.ProcessEnv} = {}): Promise<ServedProject> {
  const repo = makeRepo(extra)
  let server: SpawnedCli | undefined = spawnCli(['serve', '--port', '0', '--json', ...(serve.args ?? [])], {cwd: repo.root, env: serve.env})
  const started = await server.nextJson()
  if (started.event !== 'listening') throw new Error(`the daemon did not start: ${JSON.stringify(started)} ${server.stderr()}`)
  return {
    repo,
    url: started.url as string,
    mesh: (args, options = {}) => runCli(args, {cwd: repo.root, ...options}),
    tokens() {
      try {
        return (parse(repo.read('.mesh/credentials/team-tokens.yaml')) as Record<string, string> | null) ?? {}
      } catch {
        return {}
      }
    },
    async stop() {
      await server?.stop()
      server = undefined
      repo.cleanup()
    },
  }
}

/** The last whitespace-separated word of the output (where token commands put the token). */
export const lastWord = (stdout: string) => stdout.trim().split(/\s+/).pop() ?? ''
