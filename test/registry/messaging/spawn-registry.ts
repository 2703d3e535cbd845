/**
 * Spawns the built `mesh serve registry` (dist/ must be fresh: `npm test`
 * builds first) and reads its `--json` start line for the URL.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {fileURLToPath} from 'node:url'

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

export interface SpawnedRegistry {
  child: ChildProcess
  url: string
  wsUrl(token: string): string
  stderr(): string
  /** Exit code, or the signal's name. */
  exited: Promise<number | string>
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | string>
}

export async function spawnRegistry(args: string[]): Promise<SpawnedRegistry> {
  const child = spawn(process.execPath, [BIN, 'serve', 'registry', '--json', '--port', '0', '--log-level', 'warn', ...args], {
    env: {...process.env, CI: 'true', NO_COLOR: '1', MESH_SECRETS_BACKEND: 'file'},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string)
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const line = out.split('\n').find((l) => l.includes('"event":"listening"'))
      if (line) resolve(JSON.parse(line).url)
    })
    void exited.then((code) => reject(new Error(`mesh serve registry exited (${code}) before listening; stderr: ${err}`)))
  })
  return {
    child,
    url,
    wsUrl: (token) => `${url.replace(/^http/, 'ws')}/v1/agents/ws?token=${encodeURIComponent(token)}`,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/** fetch with a JSON body and answer; `raw` sends exact bytes (signed requests). */
export async function call(url: string, init: {method?: string; body?: unknown; raw?: string; token?: string; headers?: Record<string, string>} = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
    headers: {'content-type': 'application/json', ...(init.token ? {authorization: `Bearer ${init.token}`} : {}), ...init.headers},
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  })
  const text = await res.text()
  return {status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, any>}
}

/** Registers an agent and returns its api key and a fresh token. */
export async function registerAgent(baseUrl: string, agentId: string) {
  const reg = await call(`${baseUrl}/v1/agents/register`, {body: {agent_id: agentId, capabilities: ['demo']}})
  if (reg.status !== 201) throw new Error(`register ${agentId}: ${reg.status} ${JSON.stringify(reg.body)}`)
  const token = await call(`${baseUrl}/v1/agents/token`, {body: {agent_id: agentId, api_key: reg.body.api_key}})
  return {apiKey: reg.body.api_key as string, token: token.body.token as string}
}
