/**
 * How an operator's server runs from the CLI, the same for `mesh serve
 * registry` and `mesh serve relay`: flag checks, the hint about an old data
 * folder, one start line (or NDJSON event) once ready; the start failures
 * and the stop on SIGINT/SIGTERM are every serve's (serve-process.ts).
 * docs/registry.md "Running a registry", docs/relay.md "Running it".
 */
import {join} from 'node:path'
import type {Logger} from '../lib/log.js'
import {legacyEnvHint, oldDataDir, oldDataHint} from './old-data-hint.js'
import {checkServerFlags, hostOf} from './serve-checks.js'
import {serveProcess} from './serve-process.js'
import type {ServerFlagValues} from './server-flags.js'

export type ServiceName = 'registry' | 'relay'

/** What the command's start function opened: listening, ready to serve. */
export interface StartedServer {
  url: string
  port: number
  publicUrl: string
  /** Where `GET /metrics` answers (`--metrics`), on the main port or `--metrics-port`. */
  metricsUrl?: string
  /** Closes sockets (`server_shutdown`), the HTTP server, then database and bus. */
  stop(): Promise<void>
}

export interface StartContext {
  dataDir: string
  /** `--public-url` checked and without trailing slashes; undefined: the listening address. */
  publicUrl?: string
  logger: Logger
}

export interface RunServerOptions {
  service: ServiceName
  flags: ServerFlagValues
  /** `--data` was left at its default (no flag, no env). */
  dataFromDefault: boolean
  json: boolean
  /** Prints a line for humans (the command's this.log). */
  log(line: string): void
  /** Opens the backends and listens; any throw becomes a start failure. */
  start(context: StartContext): Promise<StartedServer>
}

/** The `listening` event; the same keys for both servers (docs/registry.md, docs/relay.md). */
export interface ListeningEvent {
  event: 'listening'
  service: ServiceName
  url: string
  port: number
  public_url: string
  storage: 'sqlite' | 'postgres'
  data: string
  bus: 'local' | 'nats'
  proxy: boolean
  /** With `--metrics` only. */
  metrics_url?: string
}

const emit = (event: object) => process.stdout.write(JSON.stringify(event) + '\n')

/** Runs the server until SIGINT or SIGTERM, then exits the process (0 after a clean stop). */
export async function runServer(options: RunServerOptions): Promise<never> {
  const {service, flags} = options
  const {dataDir, publicUrl} = await checkServerFlags(flags)
  const {createLogger} = await import('../lib/log.js')
  const logger = createLogger({name: service, level: flags['log-level']})
  const databaseUrl = flags['database-url'] || undefined
  const natsUrl = flags.nats || undefined

  const legacyEnv = legacyEnvHint(process.env, dataDir, options.dataFromDefault)
  if (legacyEnv) logger.warn(legacyEnv)
  const old = databaseUrl ? null : oldDataDir(dataDir, options.dataFromDefault)
  if (old) logger.warn(oldDataHint(old, dataDir), {data: dataDir, old_data: old})

  return serveProcess({
    server: {service, listen: {host: flags.host, port: flags.port, portFlag: '--port'}, backends: {dataDir, databaseUrl, natsUrl}},
    logger,
    start: () => options.start({dataDir, publicUrl, logger}),
    announce(started) {
      const listening: ListeningEvent = {
        event: 'listening',
        service,
        url: started.url,
        port: started.port,
        public_url: started.publicUrl,
        storage: databaseUrl ? 'postgres' : 'sqlite',
        data: dataDir,
        bus: natsUrl ? 'nats' : 'local',
        proxy: flags.proxy,
        ...(started.metricsUrl ? {metrics_url: started.metricsUrl} : {}),
      }
      if (options.json) {
        emit(listening)
        return
      }
      const storage = databaseUrl ? `postgresql at ${hostOf(databaseUrl)}` : `sqlite ${join(dataDir, 'mesh.db')}`
      const bus = natsUrl ? `bus nats (prefix ${flags['nats-prefix']})` : 'bus local'
      const metrics = started.metricsUrl ? `; metrics at ${started.metricsUrl}` : ''
      options.log(`mesh ${service} listening on ${started.url} (public ${started.publicUrl}; ${storage}; ${bus}${flags.proxy ? '; behind a proxy' : ''}${metrics})`)
    },
    stopped(signal) {
      if (options.json) emit({event: 'stopped', service, signal})
    },
  })
}
