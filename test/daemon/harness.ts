/** A scaffolded project with a daemon served in-process on port 0, for the daemon's tests. */
import {mkdtempSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {silentLogger} from '../../src/lib/log.js'
import {startDaemon, type RunningDaemon, type StartDaemonOptions} from '../../src/daemon/start.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'

export interface DaemonHarness {
  repo: FixtureRepo
  running: RunningDaemon
  url: string
  token: string
  /** A request with full control of the headers (fetch cannot set Host). */
  call(method: string, path: string, options?: {headers?: Record<string, string>; body?: string; auth?: boolean}): Promise<{status: number; body: any; headers: Record<string, string | string[] | undefined>}>
  close(): Promise<void>
}

// Fixture projects name hub.example.com, which these machines cannot reach: no standard catch-up call from tests
// (the standard-check tests set their own URL).
process.env.MESH_STANDARD_URL ??= ''
// Nor a connection attempt to their transport.endpoint (the transport tests pass their own env).
process.env.MESH_DAEMON_TRANSPORT ??= 'off'
// Nor the tester's own ~/.config/mesh (their clients.yaml, their trust records): an empty folder of the run's own.
process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'mesh-config-'))

export async function startHarness(options: Partial<StartDaemonOptions> & {repo?: FixtureRepo} = {}): Promise<DaemonHarness> {
  const repo = options.repo ?? makeRepo()
  const running = await startDaemon({root: repo.root, logger: silentLogger, port: 0, ...options})
  const token = running.daemon.context.portalToken
  const call: DaemonHarness['call'] = (method, path, callOptions = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {host: `127.0.0.1:${running.port}`, ...callOptions.headers}
      if (callOptions.auth) headers.authorization = `Bearer ${token}`
      if (callOptions.body !== undefined) headers['content-type'] ??= 'application/json'
      const req = httpRequest({host: '127.0.0.1', port: running.port, method, path, headers}, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {
            // Not JSON: the raw text.
          }
          resolve({status: res.statusCode ?? 0, body, headers: res.headers})
        })
      })
      req.on('error', reject)
      req.end(callOptions.body)
    })
  return {
    repo,
    running,
    url: running.url,
    token,
    call,
    async close() {
      await running.stop()
      repo.cleanup()
    },
  }
}
