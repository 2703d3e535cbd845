import {Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'

export default class Up extends MeshCommand {
  static override description = `Run the project's whole network on this machine, in one process: the daemon, a registry with its cluster relay (SQLite in .mesh/.runtime/network/), the project's private cluster on that relay (the daemon joins it; cluster.yaml is not changed), and the project's directory agent from mesh.json, registered there and kept online.

Prints one table of addresses; Ctrl-C stops everything. See docs/daemon.md, Whole network.`

  static override examples = ['<%= config.bin %> up', '<%= config.bin %> up --registry-port 9090 --json']

  static override flags = {
    dir: projectDirFlag,
    'registry-port': Flags.integer({description: 'port of the embedded registry and relay (default 8080, or any free port when 8080 is taken; 0: any free port)', min: 0, max: 65535}),
    'daemon-port': Flags.integer({description: "the daemon's port (default: architect.port, then 5570–5589)", min: 0, max: 65535}),
    'log-level': Flags.option({options: ['debug', 'info', 'warn', 'error'] as const, description: 'log level on stderr', default: 'warn', env: 'MESH_LOG_LEVEL'})(),
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(Up)
    const [{findProjectRoot}, {createLogger}, {startNetwork}, {printable}, {serveProcess}] = await Promise.all([
      import('../standard/project/project-root.js'),
      import('../lib/log.js'),
      import('../cli/whole-network.js'),
      import('../client/printable.js'),
      import('../cli/serve-process.js'),
    ])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const logger = createLogger({name: 'up', level: flags['log-level']})
    const json = this.jsonEnabled()
    return serveProcess({
      // The network names the failed listener itself: the daemon's port or the registry's.
      server: {service: 'network'},
      logger,
      start: () =>
        startNetwork({
          root,
          logger,
          registryPort: flags['registry-port'],
          daemonPort: flags['daemon-port'],
          onAgent: (event) => {
            if (json) process.stdout.write(JSON.stringify({...event, event: `agent.${event.event}`}) + '\n')
            else if (event.event === 'retry' || event.event === 'register_failed' || event.event === 'stopped') process.stderr.write(`directory agent: ${printable(String((event.error as {message?: string})?.message ?? event.error ?? event.event))}\n`)
          },
        }),
      announce: async (network) => {
        // What the daemon's /health warns about (a refused clients file, say) comes with the table, as with `mesh serve`.
        const warnings = await network.daemon.daemon.warnings()
        const up = {event: 'up', root, daemon: {url: network.daemon.url}, registry: network.registry, relay: network.relay, cluster: network.cluster, agent: network.agent, warnings}
        if (json) {
          process.stdout.write(JSON.stringify(up) + '\n')
          return
        }
        const rows = [
          ['daemon', network.daemon.url, `project ${network.daemon.daemon.context.projectId() ?? '(no id)'}`],
          ['registry', network.registry.url, `SQLite in ${network.registry.data}`],
          ['relay', network.relay.url, `the project's private cluster (${network.cluster.created ? 'created now' : 'kept from before'}); the daemon joins it`],
          ['agent', network.agent ? network.agent.agent_id : '—', network.agent ? `online (${network.agent.registered === 'new' ? 'registered now' : 'registered before'})` : 'no directory block in mesh.json'],
        ]
        const width = Math.max(...rows.map((r) => r[1].length))
        this.log(`mesh network of ${root}`)
        for (const [name, address, note] of rows) this.log(`  ${name.padEnd(9)}${address.padEnd(width + 2)}${note}`)
        for (const warning of warnings) this.log(`  warning: ${warning}`)
        this.log('Ctrl-C stops everything.')
      },
      stopped: (signal) => {
        if (json) process.stdout.write(JSON.stringify({event: 'stopped', signal}) + '\n')
        else this.log('stopped')
      },
    })
  }
}
