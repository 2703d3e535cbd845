import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {MeshError} from '../../lib/errors.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {DebugLine} from '../../client/daemon/follow-debug.js'

const LEVELS = ['debug', 'info', 'warn', 'error'] as const

export default class DaemonLogs extends MeshCommand {
  static override description = `Show the daemon's debug stream (.mesh/.runtime/debug.jsonl, kept 30 minutes).

On a terminal, --follow opens a live view with level colours; press l to change the minimum level, t to filter tags, q to quit. In a pipe (or with --json) every event is one NDJSON line. Reads the running daemon's stream with the portal token (.mesh/credentials/portal-token); with no daemon running it prints the stream file as the last daemon left it, saying so on stderr (--follow waits for a daemon instead).`

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
    const colour = stdoutIsTTY() && !this.jsonEnabled() && !process.env.NO_COLOR
    const print = (events: DebugLine[]) => {
      for (const event of events) {
        if (!passes(event, flags.level, tags)) continue
        process.stdout.write((colour ? formatLine(event, true) : stdoutIsTTY() && !this.jsonEnabled() ? formatLine(event, false) : JSON.stringify(event)) + '\n')
      }
    }
    if (!flags.follow && !(await locate())) {
      // No daemon: the file it keeps the stream in, as the last one left it (the next one starts from it too).
      const [{readDebugFile}, {meshPath}, {DEBUG_FILE}, {FILES_NOTE}] = await Promise.all([
        import('../../daemon/debug-stream.js'),
        import('../../standard/project/project-root.js'),
        import('../../protocol/daemon.js'),
        import('../../cli/project-reads.js'),
      ])
      const kept = await readDebugFile(meshPath(root), DEBUG_FILE)
      if (kept === null) throw new MeshError('unavailable', 'daemon_not_running', `No daemon serves this project, and none left a debug stream (.mesh/${DEBUG_FILE}); start it with \`mesh serve\``)
      process.stderr.write(`${FILES_NOTE} (.mesh/${DEBUG_FILE}, as the last daemon left it)\n`)
      const since = Date.now() - flags.last * 1000
      print(kept.filter((event) => Date.parse(event.ts) >= since))
      return
    }

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
      await followDebug({
        locate,
        lastSecs: flags.last,
        follow: flags.follow,
        signal: controller.signal,
        onEvents: print,
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
