import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {stdoutIsTTY} from '../../cli/tty.js'

export default class TeamWatch extends MeshCommand {
  static override description = `Watch the team at work, live, through the running daemon.

On a terminal: the members (working, waiting or idle), the conversations at work as a tree — a member session working on a delegated request sits under the conversation that asked — with each running turn's last line and queue (an idle conversation's queued items too), cards and queues changed on disk read again, the open requests and the latest endings (failed turns, answered or refused requests, completed tasks, commits). q or Ctrl-C quits.

In a pipe (or with --json): NDJSON — first {"type":"snapshot","ts","data":{members,convs,turns,requests,queues}}, then every team event as the daemon sends it ({type, ts, data}: chat.*, delegation.*, queue.item.*, team.*, task.completed, commit.created, and file.changed of a team card or a queue: a hand edit, a restore, a deletion). After the daemon drops the stream (a restart) a new snapshot line follows once it is back. Ctrl-C ends it with exit 0. Needs \`mesh serve\` running in the project. See docs/cli.md.`

  static override examples = ['<%= config.bin %> team watch', '<%= config.bin %> team watch | jq -c \'select(.type == "chat.assistant.final") | {member: .data.member, status: .data.status}\'']

  static override flags = {
    dir: projectDirFlag,
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(TeamWatch)
    const [{connectDaemon}, {locateDaemon, readPortalToken}, {watchTeam}] = await Promise.all([
      import('../../cli/daemon-session.js'),
      import('../../client/daemon/locate.js'),
      import('../../client/daemon/team-watch.js'),
    ])
    // The first look says clearly when no daemon runs; later drops are waited out.
    const {root} = await connectDaemon(flags.dir)
    const locate = async () => {
      const found = await locateDaemon(root)
      const token = found.state === 'running' ? await readPortalToken(root) : null
      return found.state === 'running' && token ? {url: found.url, token} : null
    }

    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    try {
      if (stdoutIsTTY() && !this.jsonEnabled()) {
        const {runTeamView} = await import('../../tui/team/run-team.js')
        await runTeamView({title: `mesh team · ${root}`, signal: controller.signal, follow: (options) => watchTeam({locate, ...options})})
        return
      }
      const line = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n')
      await watchTeam({
        locate,
        signal: controller.signal,
        onSnapshot: (snapshot) => line({type: 'snapshot', ts: new Date().toISOString(), data: snapshot}),
        onEvent: line,
        onState: (state) => {
          if (!state.connected) process.stderr.write(`waiting for the daemon (${state.reason ?? 'disconnected'})…\n`)
        },
      })
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
  }
}
