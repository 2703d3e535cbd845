/**
 * One writer per file (STYLE.md; issue 20): while the project's daemon runs
 * it owns `.mesh/`, so every command that writes there asks it; with no
 * daemon the command writes itself, through a project writer of its own
 * (snapshot of the previous bytes, atomic write, inside `.mesh/` only) and
 * the same rules. This is the one place that switch is made.
 *
 * A daemon.json naming a dead process (a killed daemon) counts as no daemon.
 * Writers of task files also hold the task lock (src/daemon/tasks/), so a
 * command that found no daemon a moment before one started never
 * interleaves with it.
 */
import {invalid} from '../lib/errors.js'
import {MEMBER_ID_PATTERN} from '../protocol/team.js'
import {BY_OPERATOR} from '../protocol/tasks.js'
import type {ProjectWriter} from '../daemon/project-writer.js'
import type {DaemonSession} from './daemon-session.js'

export type WriteVia = 'daemon' | 'local'

/** The project as a command writes it with no daemon: its root, a writer that follows cluster.yaml's snapshot settings, the clock. */
export interface LocalProject {
  root: string
  writer: ProjectWriter
  now: () => Date
  /** A write function for the standard library's `write` options: an absolute path inside `.mesh/`, through `writer`. */
  writeWith(reason: string): (absolutePath: string, text: string) => Promise<void>
}

export interface ProjectWrite<T> {
  /** The call to the running daemon. */
  daemon(session: DaemonSession): Promise<T>
  /** The same write, made here. */
  local(project: LocalProject): Promise<T>
}

/** Runs `write` through the project's running daemon, else locally; says which. */
export async function writeProject<T>(dir: string | undefined, write: ProjectWrite<T>): Promise<{via: WriteVia; result: T}> {
  const [{findProjectRoot}, {sessionIfRunning}] = await Promise.all([import('../standard/project/project-root.js'), import('./daemon-session.js')])
  const root = await findProjectRoot(dir ?? process.cwd())
  const {session} = await sessionIfRunning(root)
  if (session) return {via: 'daemon', result: await write.daemon(session)}
  const [{createProjectWriter}, {readDaemonSettings}, {relative, sep}, {meshPath}] = await Promise.all([
    import('../daemon/project-writer.js'),
    import('../daemon/settings.js'),
    import('node:path'),
    import('../standard/project/project-root.js'),
  ])
  const settings = await readDaemonSettings(root)
  const writer = createProjectWriter({root, clock: Date.now, snapshotsEnabled: () => settings.snapshots.enabled})
  const writeWith = (reason: string) => async (absolutePath: string, text: string) => {
    await writer.write(relative(meshPath(root), absolutePath).split(sep).join('/'), text, {reason})
  }
  return {via: 'local', result: await write.local({root, writer, now: () => new Date(), writeWith})}
}

/**
 * Who a command acts as (`by` of a task write): `--by`, else the member whose
 * turn runs the command (`MESH_MEMBER`, set in a turn's client process —
 * docs/daemon.md, Chat), else the operator. Inside a turn `--by` can only
 * name that turn's member: an agent does not speak as the operator or a
 * teammate (the draft rule, spec States and transitions, would mean nothing).
 */
export function actingAs(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const member = env.MESH_MEMBER?.trim() || undefined
  const by = flag ?? member ?? BY_OPERATOR
  if (by !== BY_OPERATOR && !MEMBER_ID_PATTERN.test(by)) {
    throw invalid('usage_by_invalid', `--by is "operator" or a team member id (a lowercase letter, then 1 to 31 of a-z, 0-9 and -); got "${by.slice(0, 40)}"`, {field: 'by'})
  }
  if (member !== undefined && by !== member) {
    throw invalid('usage_by_not_turn_member', `This command runs in a turn of ${member} (MESH_MEMBER): it acts as ${member}, not as "${by}"`, {field: 'by'})
  }
  return by
}
