/**
 * What `mesh serve` runs in a project: one daemon per project (the lock),
 * loopback only, on `architect.port` or the first free port up to 5589
 * (spec Limits), with `.mesh/.runtime/daemon.json` written once it listens
 * and removed on a clean stop. A runtime file or lock left by a killed daemon
 * names a dead pid and is replaced. docs/daemon.md, Start and find.
 */
import {serve, type HostedServer} from '../http/host.js'
import {MeshError} from '../lib/errors.js'
import type {Logger} from '../lib/log.js'
import {DAEMON_HOST, DAEMON_PORT_FIRST, DAEMON_PORT_LAST} from './constants.js'
import {createDaemon, type Daemon, type DaemonOptions} from './daemon.js'
import {assertRealMeshFolder} from './project-files.js'
import {sweepTempFiles} from './temp-sweep.js'
import {projectRealPath} from '../lib/real-path.js'
import type {DaemonRuntime} from '../protocol/daemon.js'
import {acquireDaemonLock, readRuntime, removeRuntime, writeRuntime} from './runtime.js'

export interface StartDaemonOptions extends Omit<DaemonOptions, 'endpoint'> {
  logger: Logger
  /** A fixed port (0: any free one), instead of the spec's scan from architect.port to 5589. */
  port?: number
}

export interface RunningDaemon {
  daemon: Daemon
  url: string
  port: number
  runtime: DaemonRuntime
  /** Closes the daemon and removes daemon.json and the lock. Idempotent. */
  stop(): Promise<void>
}

/** The ports to try: the configured one first, then the rest of the spec's range. */
export function candidatePorts(configured: number): number[] {
  const range = Array.from({length: DAEMON_PORT_LAST - DAEMON_PORT_FIRST + 1}, (_, i) => DAEMON_PORT_FIRST + i)
  return [configured, ...range.filter((port) => port !== configured)]
}

/** The configured port, then the spec's range; a fixed port (`--port`) is tried alone and its error is the caller's listen failure. */
async function listenOnFirstFree(daemon: Daemon, logger: Logger, ports: number[], fixed: boolean): Promise<HostedServer> {
  for (const port of ports) {
    try {
      return await serve({services: [daemon.service], logger, port, host: DAEMON_HOST})
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (fixed || (code !== 'EADDRINUSE' && code !== 'EACCES')) throw error
    }
  }
  throw new MeshError('unavailable', 'daemon_no_port', `No free port for the daemon: ports ${ports[0]} and ${DAEMON_PORT_FIRST}–${DAEMON_PORT_LAST} are all taken on ${DAEMON_HOST}; free one or set architect.port in .mesh/public/cluster.yaml`)
}

export async function startDaemon(options: StartDaemonOptions): Promise<RunningDaemon> {
  // Before the lock: the lock file itself must not be written through a linked .mesh.
  await assertRealMeshFolder(options.root)
  const lock = await acquireDaemonLock(options.root)
  const release = lock.release
  let url = ''
  let daemon: Daemon | undefined
  let hosted: HostedServer | undefined
  try {
    daemon = await createDaemon({...options, endpoint: () => url})
    for (const {pid, why} of lock.takenOver) daemon.context.debug.log({lvl: 'warn', tag: 'boot', msg: `took over the daemon lock of pid ${pid}: ${why}`, data: {pid}})
    const stale = await readRuntime(options.root)
    if (stale) daemon.context.debug.log({lvl: 'warn', tag: 'boot', msg: `replacing the runtime file of a daemon that did not stop cleanly (pid ${stale.pid}, port ${stale.port})`})
    const leftovers = await sweepTempFiles(daemon.context.meshPath())
    if (leftovers.length) daemon.context.debug.log({lvl: 'info', tag: 'boot', msg: `removed ${leftovers.length} temp file(s) of interrupted writes`, data: {files: leftovers.slice(0, 20)}})
    const fixed = options.port !== undefined
    hosted = await listenOnFirstFree(daemon, options.logger, fixed ? [options.port!] : candidatePorts(daemon.settings().port), fixed)
    url = hosted.url
    const runtime: DaemonRuntime = {port: hosted.port, pid: process.pid, started_at: new Date(daemon.context.clock()).toISOString(), version: daemon.context.version, root: await projectRealPath(options.root)}
    await writeRuntime(options.root, runtime)
    daemon.context.debug.log({lvl: 'info', tag: 'boot', msg: `daemon ${runtime.version} serving ${options.root} on ${url}`, data: {port: runtime.port, pid: runtime.pid}})
    let stopping: Promise<void> | undefined
    const started = {daemon, hosted}
    return {
      daemon,
      url,
      port: hosted.port,
      runtime,
      stop() {
        stopping ??= (async () => {
          await started.hosted.stop()
          await removeRuntime(options.root)
          await release()
        })()
        return stopping
      },
    }
  } catch (error) {
    if (hosted) await hosted.stop().catch(() => {})
    else if (daemon) await daemon.service.close().catch(() => {})
    await release()
    throw error
  }
}
