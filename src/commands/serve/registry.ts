import {createServer} from 'node:net'
import {resolve} from 'node:path'
import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {MeshError} from '../../lib/errors.js'

/** Asks the OS for a free port, so `--port 0` still knows its public URL before the services are built. */
async function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, host, () => {
      const {port} = probe.address() as {port: number}
      probe.close(() => done(port))
    })
  })
}

export default class ServeRegistry extends MeshCommand {
  static override description = `Run an agent registry (with its search, prober, message bus and the cluster relay) on one port.

Storage is SQLite in <data>/mesh.db unless --database-url names a PostgreSQL database (several nodes may share it, with --nats for fan-out). The JWT secret and the admin key are generated at first start into the data dir (mode 0600; with PostgreSQL also in the database, so every node shares them). Logs one line with the URL once ready; SIGINT or SIGTERM stops it cleanly.`

  static override examples = [
    '<%= config.bin %> serve registry --port 8080 --data ./registry-data',
    '<%= config.bin %> serve registry --port 443 --host 0.0.0.0 --public-url https://registry.example --data /var/lib/mesh',
    '<%= config.bin %> serve registry --port 8080 --data ./node-a --database-url postgres://mesh@db/mesh --nats nats://nats:4222',
  ]

  static override flags = {
    port: Flags.integer({char: 'p', description: 'port to listen on (0 picks a free one)', default: 8080, min: 0, max: 65535}),
    host: Flags.string({description: 'address to bind', default: '127.0.0.1'}),
    data: Flags.string({char: 'd', description: 'data dir (SQLite database, secrets)', default: './mesh-registry-data', env: 'MESH_DATA_DIR'}),
    'public-url': Flags.string({description: 'public base URL used in hub_url, handles and cluster ws URLs (default: the listening address)'}),
    'database-url': Flags.string({description: 'PostgreSQL URL (postgres://…) instead of SQLite', env: 'MESH_DATABASE_URL'}),
    'database-schema': Flags.string({description: 'PostgreSQL schema', default: 'public'}),
    nats: Flags.string({description: 'NATS URL (nats://…) for fan-out between registry nodes', env: 'MESH_NATS_URL'}),
    'nats-prefix': Flags.string({description: 'subject prefix on NATS', default: 'mesh'}),
    'allow-private-endpoints': Flags.boolean({description: 'let the prober and webhooks reach private and loopback addresses (development, LAN)', default: false}),
    'rate-limit-ip': Flags.integer({description: 'requests per minute per client IP on registry routes', default: 600, min: 1}),
    'rate-limit-identity': Flags.integer({description: 'requests per minute per verified agent or signing key', default: 300, min: 1}),
    'rate-limit-register': Flags.integer({description: 'registrations per hour per client IP', default: 60, min: 1}),
    'log-level': Flags.option({options: ['debug', 'info', 'warn', 'error'] as const, description: 'server log level (stderr)', default: 'info'})(),
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(ServeRegistry)
    const {checkUrl, checkNames, checkDataDir, failedBackend} = await import('../../cli/serve-checks.js')
    const publicUrl = flags['public-url']
    if (publicUrl !== undefined) checkUrl(publicUrl, '--public-url', ['http:', 'https:'], 'https://registry.example')
    if (flags['database-url']) checkUrl(flags['database-url'], '--database-url', ['postgres:', 'postgresql:'], 'postgres://mesh@db:5432/mesh')
    if (flags.nats) for (const server of flags.nats.split(',')) checkUrl(server.trim(), '--nats', ['nats:', 'tls:', 'ws:', 'wss:'], 'nats://127.0.0.1:4222')
    checkNames(flags)
    const dataDir = resolve(flags.data)
    await checkDataDir(dataDir)

    const [{createLogger}, {buildRegistryServer}, {serve}] = await Promise.all([
      import('../../lib/log.js'),
      import('../../registry/compose.js'),
      import('../../http/host.js'),
    ])
    const logger = createLogger({name: 'registry', level: flags['log-level']})
    let port = flags.port
    if (port === 0) {
      try {
        port = await freePort(flags.host)
      } catch (error) {
        throw new MeshError('unavailable', 'listen_failed', `The registry could not listen on ${flags.host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; check --host`)
      }
    }
    const shownHost = flags.host.includes(':') ? `[${flags.host}]` : flags.host === '0.0.0.0' ? '127.0.0.1' : flags.host
    let server
    try {
      server = await buildRegistryServer({
        dataDir,
        publicUrl: (publicUrl ?? `http://${shownHost}:${port}`).replace(/\/+$/, ''),
        logger,
        databaseUrl: flags['database-url'],
        databaseSchema: flags['database-schema'],
        natsUrl: flags.nats,
        natsPrefix: flags['nats-prefix'],
        allowPrivateEndpoints: flags['allow-private-endpoints'],
        limits: {
          perIpPerMinute: flags['rate-limit-ip'],
          perIdentityPerMinute: flags['rate-limit-identity'],
          registrationsPerIpPerHour: flags['rate-limit-register'],
        },
      })
    } catch (error) {
      if (error instanceof MeshError) throw error
      const backend = failedBackend(error, {databaseUrl: flags['database-url'], natsUrl: flags.nats, dataDir})
      const e = error as NodeJS.ErrnoException
      // NATS reports bare codes (CONNECTION_REFUSED); an AggregateError (every address refused) has an empty message.
      const why = (e.message || e.code || String(error)).replace(/\/\/[^/@\s]*@/g, '//***@')
      throw new MeshError('unavailable', 'registry_start_failed', `The registry could not start: ${backend ? `${backend}: ` : ''}${why}`)
    }
    let hosted
    try {
      hosted = await serve({services: server.services, logger, port, host: flags.host})
    } catch (error) {
      await server.close()
      const code = (error as NodeJS.ErrnoException).code
      const why = code === 'EADDRINUSE' ? `port ${port} is already in use` : code === 'EACCES' ? `no permission to bind port ${port}` : (error as Error).message
      throw new MeshError('unavailable', 'listen_failed', `The registry could not listen on ${flags.host}:${port}: ${why}`)
    }
    const context = server.registry.context
    const storage = server.storage.kind === 'sqlite' ? `sqlite ${server.storage.path}` : 'postgresql'
    const started = {event: 'listening', url: hosted.url, public_url: context.publicUrl, storage: server.storage.kind, bus: server.bus, data: dataDir}
    if (this.jsonEnabled()) process.stdout.write(JSON.stringify(started) + '\n')
    else this.log(`mesh registry listening on ${hosted.url} (public ${context.publicUrl}; ${storage}; bus ${server.bus})`)

    const signal = await new Promise<NodeJS.Signals>((done) => {
      process.once('SIGINT', () => done('SIGINT'))
      process.once('SIGTERM', () => done('SIGTERM'))
    })
    // A second signal while shutting down means "now".
    const force = () => process.exit(1)
    process.once('SIGINT', force)
    process.once('SIGTERM', force)
    logger.info('stopping', {signal})
    await hosted.stop()
    await server.close()
    logger.info('stopped')
    const stopped = {event: 'stopped', signal}
    if (this.jsonEnabled()) process.stdout.write(JSON.stringify(stopped) + '\n')
    // Everything is closed; exit now rather than wait on idle sockets of clients.
    process.exit(0)
  }
}
