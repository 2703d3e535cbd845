import {fetchHealth} from '../../client/daemon/daemon-client.js'
import {locateDaemon} from '../../client/daemon/locate.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import type {CommandOutcome} from './outcome.js'

/** `mesh daemon status`: whether the project's daemon runs and answers /health; exit 1 when it does not. */
export async function daemonStatusView(flags: {dir?: string}): Promise<CommandOutcome> {
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
  const lines: string[] = []
  if (state === 'running') {
    lines.push(`running on ${result.url} (pid ${result.pid}, since ${result.started_at}, version ${result.version})`)
    const transport = transportLine(health?.transport)
    if (transport) lines.push(transport)
    for (const warning of (health?.warnings as string[] | undefined) ?? []) lines.push(`warning: ${warning}`)
  } else if (state === 'not_answering') lines.push(`pid ${result.pid} holds the runtime file but ${result.url ?? 'its port'} does not answer /health`)
  else if (state === 'stale') lines.push(`stopped (a daemon, pid ${result.pid}, did not stop cleanly; \`mesh serve\` takes over its files)`)
  else lines.push('stopped')
  return {result, lines, notes: [], exitCode: state === 'running' ? undefined : 1}
}

/** One line on the project's channel: where the daemon is connected, or why not (a project not linked says so calmly). */
function transportLine(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null
  const transport = value as {state?: string; endpoint?: string | null; reason?: string; using?: string}
  if (transport.state === 'connected') return `transport: connected to ${transport.endpoint}${transport.using === 'fallback' ? ' (transport.fallback)' : ''}`
  if (transport.state === 'unlinked' || transport.state === 'off') return `transport: ${transport.reason}`
  return null
}
