import {homedir} from 'node:os'
import {join} from 'node:path'
import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {invalid} from '../../lib/errors.js'

export default class ServeRelay extends MeshCommand {
  static override description = `Run the cluster relay: real-time rooms over WebSocket, the public catalog, boards and posts.

One process serves everything with SQLite in --data. For several nodes, point each at the same PostgreSQL (--database-url) and NATS (--nats): members on any node see each other. Stops cleanly on SIGINT/SIGTERM; open sockets get closed {reason: "server_shutdown"}. See docs/relay.md.`

  static override examples = [
    '<%= config.bin %> serve relay --port 8080',
    '<%= config.bin %> serve relay --port 0 --data /tmp/relay',
    '<%= config.bin %> serve relay --host 0.0.0.0 --public-url https://relay.example.com --database-url postgres://mesh@db/mesh --nats nats://nats:4222',
  ]

  static override flags = {
    port: Flags.integer({description: 'port to listen on (0 picks a free one; the bound port is printed)', default: 8080, min: 0, max: 65535}),
    host: Flags.string({description: 'interface to bind', default: '127.0.0.1'}),
    data: Flags.string({description: 'data directory for the SQLite database (mesh.db)', env: 'MESH_DATA', default: join(homedir(), '.mesh', 'data')}),
    'public-url': Flags.string({description: 'public base URL used in returned ws URLs (default: the listening address)', env: 'MESH_PUBLIC_URL'}),
    'database-url': Flags.string({description: 'PostgreSQL URL; replaces SQLite (needed for several nodes)', env: 'MESH_DATABASE_URL'}),
    'database-schema': Flags.string({description: 'PostgreSQL schema to use (created when missing)', env: 'MESH_DATABASE_SCHEMA'}),
    nats: Flags.string({description: 'NATS URL for fan-out between relay nodes', env: 'MESH_NATS_URL'}),
    'nats-prefix': Flags.string({description: 'prefix of every NATS subject, to share one NATS server between deployments', env: 'MESH_NATS_PREFIX', default: 'mesh'}),
    proxy: Flags.boolean({description: 'trust X-Forwarded-For for client addresses (behind a reverse proxy)', default: false}),
    'max-message-rate': Flags.integer({description: 'messages per second one socket may send', min: 1}),
    'max-members': Flags.integer({description: 'sockets per cluster, across nodes', min: 1}),
    'max-creations-per-hour': Flags.integer({description: 'cluster creations per client IP per hour', min: 1}),
    'high-water-bytes': Flags.integer({description: 'unsent bytes after which a slow socket is closed (slow_consumer)', min: 65536}),
    'ping-interval': Flags.integer({description: 'seconds between keepalive pings; a socket missing a pong is closed', min: 1}),
  }

  async run() {
    const {flags} = await this.parse(ServeRelay)
    const publicUrl = flags['public-url']
    if (publicUrl !== undefined && !/^https?:\/\/[^/]+/i.test(publicUrl)) {
      throw invalid('usage_public_url', `--public-url must be an http(s) URL, got "${publicUrl}"`)
    }
    const {createLogger} = await import('../../lib/log.js')
    const {startRelayServer} = await import('../../cluster/server.js')
    const logger = createLogger({name: 'relay'})
    const limits = {
      ...(flags['max-message-rate'] ? {messagesPerWindow: flags['max-message-rate'], messageWindowMs: 1000} : {}),
      ...(flags['max-members'] ? {membersPerCluster: flags['max-members']} : {}),
      ...(flags['max-creations-per-hour'] ? {creationsPerIp: flags['max-creations-per-hour']} : {}),
      ...(flags['high-water-bytes'] ? {highWaterBytes: flags['high-water-bytes']} : {}),
      ...(flags['ping-interval'] ? {pingIntervalMs: flags['ping-interval'] * 1000} : {}),
    }
    const running = await startRelayServer({
      port: flags.port,
      host: flags.host,
      publicUrl,
      dataDir: flags.data,
      databaseUrl: flags['database-url'],
      databaseSchema: flags['database-schema'],
      natsUrl: flags.nats,
      natsPrefix: flags['nats-prefix'],
      proxy: flags.proxy,
      limits,
      logger,
    }).catch((error: Error) => {
      throw invalid('relay_start_failed', `The relay could not start: ${error.message}`)
    })
    const storage = flags['database-url'] ? 'postgresql' : `sqlite ${join(flags.data, 'mesh.db')}`
    const fanout = flags.nats ? `nats (prefix ${flags['nats-prefix']})` : 'single node'
    const info = {url: running.url, port: running.port, public_url: running.publicUrl, storage, fanout}
    if (this.jsonEnabled()) process.stdout.write(JSON.stringify(info) + '\n')
    else this.log(`mesh relay listening on ${running.url} (public ${running.publicUrl}; ${storage}; ${fanout})`)

    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info('stopping', {signal})
        running.stop().then(resolve, (error: Error) => {
          logger.error('stop failed', {error: error.message})
          resolve()
        })
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })
    return {...info, stopped: true}
  }
}
