import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class DaemonStatus extends MeshCommand {
  static override description = `Say whether the project's daemon runs, where, and what its /health reports.

Exit 0 when it runs and answers, 1 otherwise (stopped, or left behind by a killed daemon: \`mesh serve\` takes over such files).`

  static override examples = ['<%= config.bin %> daemon status', '<%= config.bin %> daemon status --json']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(DaemonStatus)
    const [{findProjectRoot}, {locateDaemon}, {fetchHealth}] = await Promise.all([
      import('../../standard/project/project-root.js'),
      import('../../client/daemon/locate.js'),
      import('../../client/daemon/daemon-client.js'),
    ])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const found = await locateDaemon(root)
    const health = found.state === 'running' ? await fetchHealth(found.url) : null
    const state = found.state === 'running' && !health ? 'not_answering' : found.state
    const result = {
      state,
      root,
      ...(found.state !== 'stopped' ? {pid: found.runtime.pid, port: found.runtime.port, started_at: found.runtime.started_at, version: found.runtime.version} : {}),
      ...(found.state === 'running' ? {url: found.url} : {}),
      ...(health ? {health} : {}),
    }
    if (!this.jsonEnabled()) {
      if (state === 'running') {
        this.log(`running on ${result.url} (pid ${result.pid}, since ${result.started_at}, version ${result.version})`)
        const transport = transportLine(health?.transport)
        if (transport) this.log(transport)
        for (const warning of (health?.warnings as string[] | undefined) ?? []) this.log(`warning: ${warning}`)
      } else if (state === 'not_answering') this.log(`pid ${result.pid} holds the runtime file but ${result.url ?? 'its port'} does not answer /health`)
      else if (state === 'stale') this.log(`stopped (a daemon, pid ${result.pid}, did not stop cleanly; \`mesh serve\` takes over its files)`)
      else this.log('stopped')
    }
    if (state !== 'running') process.exitCode = 1
    return result
  }
}

/** One line on the project's channel: where the daemon is connected, or why not (a project not linked says so calmly). */
function transportLine(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null
  const transport = value as {state?: string; endpoint?: string | null; reason?: string; using?: string}
  if (transport.state === 'connected') return `transport: connected to ${transport.endpoint}${transport.using === 'fallback' ? ' (transport.fallback)' : ''}`
  if (transport.state === 'unlinked' || transport.state === 'off') return `transport: ${transport.reason}`
  return null
}
