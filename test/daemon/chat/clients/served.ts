/**
 * A project served by the real binary (`mesh serve --json`), driven over
 * HTTP as an operator's tools drive it, for the clients tests (issue 18).
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {spawnCli, type SpawnedCli} from '../../../support/cli.js'

/** The folder of the claude/codex/gemini stand-ins, to put first on PATH. */
export const STAND_IN_BIN = fileURLToPath(new URL('../../../support/assistant-clis/bin', import.meta.url))

/** The stand-ins first on PATH, keeping their sessions where each real CLI is told to (its config-folder variable) inside `scratch`. */
export const standInEnv = (scratch: string): NodeJS.ProcessEnv => ({
  PATH: `${STAND_IN_BIN}:${process.env.PATH}`,
  CLAUDE_CONFIG_DIR: join(scratch, 'claude-config'),
  CODEX_HOME: join(scratch, 'codex-home'),
  GEMINI_CLI_HOME: join(scratch, 'gemini-home'),
})

export interface ServedProject {
  server: SpawnedCli
  /** The start line: `{"event":"listening",…,"warnings"}` under --json, else `{line}` (its warnings follow as lines). */
  start: Record<string, any>
  url: string
  /** The portal token (GET /team/<id>/token, /events). */
  token: string
  /** Any route, with the portal token unless `headers.authorization` says otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{status: number; body: any}>
  send(body: Record<string, unknown>): Promise<{status: number; body: any}>
  /** Polls `GET /chat/turns/<id>` until the turn is done or failed. */
  finished(turnId: string): Promise<Record<string, any>>
  health(): Promise<Record<string, any>>
  stop(): Promise<void>
}

/** `mesh serve --port 0` in `root` (with --json unless `text`), up to its start line. */
export async function serveProject(root: string, env: NodeJS.ProcessEnv, options: {text?: boolean} = {}): Promise<ServedProject> {
  const server = spawnCli(['serve', '--port', '0', ...(options.text ? [] : ['--json'])], {cwd: root, env: {MESH_LOG_LEVEL: 'warn', ...env}})
  let start: Record<string, any>
  if (options.text) {
    const line = await server.waitFor(/^mesh daemon serving /)
    start = {line, url: /on (http:\/\/\S+)/.exec(line)![1]}
  } else start = await server.nextJson()
  const url: string = start.url
  const token = readFileSync(join(root, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {method, headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers}, body: body === undefined ? undefined : JSON.stringify(body)})
    return {status: response.status, body: (await response.json()) as any}
  }
  return {
    server,
    start,
    url,
    token,
    call,
    send: (body) => call('POST', '/chat/send', body),
    async finished(turnId) {
      for (;;) {
        const turn = await call('GET', `/chat/turns/${turnId}`)
        if (turn.body.status === 'done' || turn.body.status === 'failed') return turn.body
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    health: async () => (await call('GET', '/health')).body,
    async stop() {
      await server.stop()
    },
  }
}
