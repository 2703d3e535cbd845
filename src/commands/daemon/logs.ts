import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {MeshError} from '../../lib/errors.js'
import {projectDirFlag} from '../../cli/project-dir.js'

const LEVELS = ['debug', 'info', 'warn', 'error'] as const

export default class DaemonLogs extends MeshCommand {
  static override description = `Show the daemon's debug stream (.mesh/.runtime/debug.jsonl, kept 30 minutes).

On a terminal, --follow opens a live view with level colours; press l to change the minimum level, t to filter tags, q to quit. In a pipe (or with --json) every event is one NDJSON line. Needs the portal token, read from .mesh/credentials/portal-token.`

  static override examples = [
    '<%= config.bin %> daemon logs',
    '<%= config.bin %> daemon logs --follow --level warn',
    '<%= config.bin %> daemon logs --tag http,boot --last 60 | jq .msg',
  ]

  static override flags = {
    dir: projectDirFlag,
    follow: Flags.boolean({char: 'f', description: 'keep showing new events (waits for the daemon when it is not running)', default: false}),
    last: Flags.integer({description: 'seconds of history to start with (the stream keeps 1800)', default: 300, min: 0, max: 1800}),
    tag: Flags.string({description: 'only these tags (comma list; a tag also matches its dotted sub-namespaces)'}),
    level: Flags.option({options: LEVELS, description: 'minimum level', default: 'debug'})(),
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(DaemonLogs)
    const [{findProjectRoot}, {locateDaemon, readPortalToken}, {followDebug}, {passes, formatLine}] = await Promise.all([
      import('../../standard/project/project-root.js'),
      import('../../client/daemon/locate.js'),
      import('../../client/daemon/follow-debug.js'),
      import('../../tui/logs/format.js'),
    ])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const tags = flags.tag ? flags.tag.split(',').map((t) => t.trim()).filter(Boolean) : []
    const locate = async () => {
      const found = await locateDaemon(root)
      const token = found.state === 'running' ? await readPortalToken(root) : null
      return found.state === 'running' && token ? {url: found.url, token} : null
    }
    if (!flags.follow && !(await locate())) throw new MeshError('unavailable', 'daemon_not_running', 'No daemon serves this project; start it with `mesh serve` (the stream lives while it runs)')

    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    try {
      if (flags.follow && stdoutIsTTY() && !this.jsonEnabled()) {
        const {runLogsView} = await import('../../tui/logs/run-logs.js')
        await runLogsView({title: `mesh daemon · ${root}`, level: flags.level, tags, signal: controller.signal, follow: (options) => followDebug({locate, lastSecs: flags.last, follow: true, ...options})})
        return
      }
      const colour = stdoutIsTTY() && !this.jsonEnabled() && !process.env.NO_COLOR
      await followDebug({
        locate,
        lastSecs: flags.last,
        follow: flags.follow,
        signal: controller.signal,
        onEvents: (events) => {
          for (const event of events) {
            if (!passes(event, flags.level, tags)) continue
            process.stdout.write((colour ? formatLine(event, true) : stdoutIsTTY() && !this.jsonEnabled() ? formatLine(event, false) : JSON.stringify(event)) + '\n')
          }
        },
        onState: (state) => {
          if (!state.connected) process.stderr.write('waiting for the daemon…\n')
        },
      })
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
  }
}
