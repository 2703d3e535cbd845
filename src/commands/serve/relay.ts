import {MeshCommand} from '../../cli/base-command.js'
import {relayLimitFlags, relayLimitsOf, serverFlags} from '../../cli/server-flags.js'

export default class ServeRelay extends MeshCommand {
  static override description = `Run the cluster relay: real-time rooms over WebSocket, the public catalog, boards and posts.

One process serves everything with SQLite in <data>/mesh.db. For several nodes, point each at the same PostgreSQL (--database-url) and NATS (--nats): members on any node see each other. It takes the same server flags as \`mesh serve registry\` (which embeds this relay). Prints one line with the URL once ready (--json: NDJSON events "listening", then "stopped"); SIGINT or SIGTERM stops it cleanly, open sockets get closed {reason: "server_shutdown"}. See docs/relay.md.`

  static override examples = [
    '<%= config.bin %> serve relay',
    '<%= config.bin %> serve relay --port 0 --data /tmp/relay',
    '<%= config.bin %> serve relay --host 0.0.0.0 --proxy --public-url https://relay.example.com --database-url postgres://mesh@db/mesh --nats nats://nats:4222',
  ]

  static override flags = {...serverFlags, ...relayLimitFlags}

  protected override streamsNdjson = true

  async run() {
    const {flags, metadata} = await this.parse(ServeRelay)
    const {runServer} = await import('../../cli/serve-run.js')
    await runServer({
      service: 'relay',
      flags,
      dataFromDefault: Boolean(metadata.flags.data?.setFromDefault),
      json: this.jsonEnabled(),
      log: (line) => this.log(line),
      start: async ({dataDir, publicUrl, logger}) => {
        const {startRelayServer} = await import('../../cluster/server.js')
        const running = await startRelayServer({
          port: flags.port,
          host: flags.host,
          publicUrl,
          dataDir,
          databaseUrl: flags['database-url'] || undefined,
          databaseSchema: flags['database-schema'],
          natsUrl: flags.nats || undefined,
          natsPrefix: flags['nats-prefix'],
          proxy: flags.proxy,
          limits: relayLimitsOf(flags),
          logger,
        })
        return {url: running.url, port: running.port, publicUrl: running.publicUrl, stop: () => running.stop()}
      },
    })
  }
}
