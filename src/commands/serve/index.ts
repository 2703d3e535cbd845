import {Flags} from '@oclif/core'
import {EXIT, MeshCommand} from '../../cli/base-command.js'
import {isMeshError} from '../../lib/errors.js'
import {DETACHED_ENV, startFailedLine} from '../../protocol/detached-start.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {chatLimitArgs, chatLimitFlags, chatLimitsOf} from '../../cli/chat-limit-flags.js'

export default class Serve extends MeshCommand {
  static override description = `Run the local daemon of the project in this folder (or any folder above it holding .mesh/).

The daemon serves the project on 127.0.0.1 only: on architect.port of .mesh/public/cluster.yaml (default 5570), or the first free port up to 5589. It writes .mesh/.runtime/daemon.json so other commands find it, and the portal token into .mesh/credentials/portal-token (mode 0600) on first start. One daemon per project: a second one is refused. Ctrl-C (SIGINT) or SIGTERM stops it cleanly. The operators' servers are \`mesh serve registry\` and \`mesh serve relay\`. See docs/daemon.md.`

  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --detach',
    '<%= config.bin %> serve --dir ../my-project --port 5600 --json',
  ]

  static override flags = {
    dir: projectDirFlag,
    port: Flags.integer({description: 'a fixed port (0: any free one) instead of architect.port, then 5570–5589', min: 0, max: 65535}),
    detach: Flags.boolean({description: 'start in the background and return once /health answers', default: false}),
    'log-level': Flags.option({options: ['debug', 'info', 'warn', 'error'] as const, description: 'log level on stderr (the debug stream keeps everything)', default: 'info', env: 'MESH_LOG_LEVEL'})(),
    ...chatLimitFlags,
  }

  protected override streamsNdjson = true

  /** Started by `mesh serve --detach`: a failure is also said as one JSON line for it (src/protocol/detached-start.ts). */
  private detachedChild = false

  override async init() {
    await super.init()
    // Read once and dropped: nothing the daemon starts (a turn's client, git and its hooks) inherits it.
    this.detachedChild = process.env[DETACHED_ENV] === '1'
    delete process.env[DETACHED_ENV]
  }

  protected override async catch(error: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (this.detachedChild && error.oclif?.exit === undefined) {
      process.stdout.write(startFailedLine({code: isMeshError(error) ? error.code : 'internal', message: error.message}))
    }
    if (isMeshError(error) && error.code === 'daemon_start_failed' && !this.jsonEnabled()) {
      // It quotes the daemon's message and a path: whole, never wrapped at 80 columns behind oclif's ` › `.
      process.stderr.write(`Error: ${error.message}\nCode: ${error.code}\n`)
      this.exit(EXIT.failure)
    }
    return super.catch(error)
  }

  async run() {
    const {flags} = await this.parse(Serve)
    const {findProjectRoot} = await import('../../standard/project/project-root.js')
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    if (flags.detach) {
      const {detachDaemon} = await import('../../cli/detach.js')
      const started = await detachDaemon({root, port: flags.port, logLevel: flags['log-level'], extraArgs: chatLimitArgs(flags)})
      if (!this.jsonEnabled()) {
        this.log(`mesh daemon ${started.already ? 'already serving' : 'serving'} ${root} on ${started.url} (pid ${started.pid}; \`mesh daemon stop\` stops it)`)
        for (const warning of started.warnings) this.log(`  warning: ${warning}`)
      }
      return {event: started.already ? 'already_running' : 'detached', url: started.url, pid: started.pid, root, warnings: started.warnings}
    }
    const [{createLogger}, {startDaemon}, {serveProcess}, {DAEMON_HOST}] = await Promise.all([
      import('../../lib/log.js'),
      import('../../daemon/start.js'),
      import('../../cli/serve-process.js'),
      import('../../daemon/constants.js'),
    ])
    const logger = createLogger({name: 'daemon', level: flags['log-level']})
    const json = this.jsonEnabled()
    return serveProcess({
      // Only a fixed --port fails to listen; the scan of the spec's range says daemon_no_port itself.
      server: {service: 'daemon', listen: {host: DAEMON_HOST, port: flags.port ?? 0, portFlag: '--port'}},
      logger,
      start: () => startDaemon({root, logger, port: flags.port, chat: chatLimitsOf(flags)}),
      announce: async (running) => {
        // What /health warns about (a refused clients file, say) comes with the start line, where the operator looks.
        const warnings = await running.daemon.warnings()
        const listening = {event: 'listening', url: running.url, port: running.port, pid: process.pid, root, version: running.runtime.version, warnings}
        if (json) process.stdout.write(JSON.stringify(listening) + '\n')
        else {
          this.log(`mesh daemon serving ${root} on ${running.url} (Ctrl-C stops it)`)
          for (const warning of warnings) this.log(`  warning: ${warning}`)
        }
      },
      stopped: (signal) => {
        if (json) process.stdout.write(JSON.stringify({event: 'stopped', signal}) + '\n')
        else this.log('mesh daemon stopped')
      },
    })
  }
}
