import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {metricsFlags, relayLimitFlags, relayLimitsOf, serverFlags} from '../../cli/server-flags.js'

export default class ServeRegistry extends MeshCommand {
  static override description = `Run an agent registry (with its search, prober, message bus and the cluster relay) on one port.

Storage is SQLite in <data>/mesh.db unless --database-url names a PostgreSQL database (several nodes may share it, with --nats for fan-out). The JWT secret and the admin key are generated at first start into the data dir (mode 0600; with PostgreSQL also in the database, so every node shares them). It takes the same server flags and relay limits as \`mesh serve relay\`. Prints one line with the URL once ready (--json: NDJSON events "listening", then "stopped"); SIGINT or SIGTERM stops it cleanly. See docs/registry.md.`

  static override examples = [
    '<%= config.bin %> serve registry',
    '<%= config.bin %> serve registry --port 443 --host 0.0.0.0 --public-url https://registry.example --data /var/lib/mesh',
    '<%= config.bin %> serve registry --site-dir /etc/mesh/site',
    '<%= config.bin %> serve registry --host 0.0.0.0 --proxy --public-url https://registry.example --database-url postgres://mesh@db/mesh --nats nats://nats:4222',
    'MESH_METRICS_TOKEN=s3cret <%= config.bin %> serve registry --metrics --metrics-port 9464',
  ]

  static override flags = {
    ...serverFlags,
    'allow-private-endpoints': Flags.boolean({description: 'let the prober and webhooks reach private and loopback addresses (development, LAN)', default: false}),
    'rate-limit-ip': Flags.integer({description: 'requests per minute per client IP on registry routes', default: 600, min: 1}),
    'rate-limit-identity': Flags.integer({description: 'requests per minute per verified agent or signing key', default: 300, min: 1}),
    'rate-limit-register': Flags.integer({description: 'registrations per hour per client IP', default: 60, min: 1}),
    'site-dir': Flags.directory({
      description: "serve the standard's site from this folder: standard/version, standard/CHANGELOG.md and resources.md (default: the texts this build of mesh ships)",
    }),
    ...relayLimitFlags,
    ...metricsFlags,
  }

  protected override streamsNdjson = true

  async run() {
    const {flags, metadata} = await this.parse(ServeRegistry)
    const {runServer} = await import('../../cli/serve-run.js')
    // Checked before anything starts: a missing or malformed file is a usage error, not a half-started server.
    const site = flags['site-dir'] ? await (await import('../../standard/site.js')).loadStandardSiteDir(flags['site-dir']) : undefined
    await runServer({
      service: 'registry',
      flags,
      dataFromDefault: Boolean(metadata.flags.data?.setFromDefault),
      json: this.jsonEnabled(),
      log: (line) => this.log(line),
      start: async ({dataDir, publicUrl, logger}) => {
        const [{buildRegistryServer}, {serve}, {publicAddress}] = await Promise.all([import('../../registry/compose.js'), import('../../http/host.js'), import('../../http/listen.js')])
        // The cards, handles and ws URLs carry the public URL: port and URL are settled before the services are built.
        const address = await publicAddress({host: flags.host, port: flags.port, publicUrl})
        const port = address.port
        const server = await buildRegistryServer({
          dataDir,
          publicUrl: address.publicUrl,
          logger,
          databaseUrl: flags['database-url'] || undefined,
          databaseSchema: flags['database-schema'],
          natsUrl: flags.nats || undefined,
          natsPrefix: flags['nats-prefix'],
          allowPrivateEndpoints: flags['allow-private-endpoints'],
          limits: {
            perIpPerMinute: flags['rate-limit-ip'],
            perIdentityPerMinute: flags['rate-limit-identity'],
            registrationsPerIpPerHour: flags['rate-limit-register'],
          },
          relayLimits: relayLimitsOf(flags),
          proxy: flags.proxy,
          // issue 18: behind a proxy with no --public-url, v2 Mesh-Sig is checked against the Host the request reached.
          audienceFromRequest: flags.proxy && publicUrl === undefined,
          site,
          metrics: flags.metrics ? {token: flags['metrics-token'] || undefined} : undefined,
        })
        const metrics = server.metrics
        const ownMetricsPort = metrics !== undefined && flags['metrics-port'] !== undefined
        let hosted: Awaited<ReturnType<typeof serve>>
        let metricsHost: Awaited<ReturnType<typeof serve>> | undefined
        try {
          const services = metrics && !ownMetricsPort ? [metrics.service, ...server.services] : server.services
          hosted = await serve({services, logger, port, host: flags.host, proxy: flags.proxy, httpMetrics: metrics?.http})
          if (metrics && ownMetricsPort) {
            const metricsPort = flags['metrics-port']!
            metricsHost = await serve({services: [metrics.service], logger, port: metricsPort, host: flags.host}).catch(async (error: unknown) => {
              await hosted!.stop()
              // The same words as a taken --port, naming this flag.
              const {listenFailure} = await import('../../cli/serve-failure.js')
              throw listenFailure(error, {service: 'registry', host: flags.host, port: metricsPort, portFlag: '--metrics-port'}) ?? error
            })
          }
        } catch (error) {
          await server.close()
          throw error
        }
        return {
          url: hosted.url,
          port: hosted.port,
          publicUrl: server.registry.context.publicUrl,
          metricsUrl: metrics ? `${(metricsHost ?? hosted).url}/metrics` : undefined,
          async stop() {
            await metricsHost?.stop()
            await hosted.stop()
            await server.close()
          },
        }
      },
    })
  }
}
