/**
 * Who calls `mesh mcp` and how it reaches the project (issue 24, deliverable
 * 3). The caller is the operator, or the team member named by `--member`
 * (else `MESH_MEMBER`, the turn's member: the same rule as `--by` of `mesh
 * task`, project-writes.ts `actingAs`). The daemon has no per-member
 * credential for its task and chat routes: a member's writes go with the
 * portal token and `by: <member>`, so the daemon applies the draft rule to
 * that member (spec States and transitions: only the operator promotes), and
 * this server applies the member's access level (issue 19: `read` writes no
 * project file) before it calls.
 *
 * Through the running daemon when there is one (its writes, its events);
 * without one, reads come from the files and every write is refused with
 * `daemon_required` (one writer per file: STYLE, Seams).
 */
import {MeshError, forbidden} from '../../lib/errors.js'
import {BY_OPERATOR} from '../../protocol/tasks.js'
import type {DaemonSession} from '../daemon-session.js'
import type {LocalReader} from '../project-reads.js'

export type AccessLevel = 'read' | 'edit' | 'full'

export interface McpCaller {
  /** `operator` or a member id: `by` of every write. */
  by: string
  /** The conversation of the turn that runs this server (`MESH_CONV`), if any: a member's delegations come from it. */
  conv: string | null
  /** A cap below the member's own level: the turn's level (an ask runs at read, a become at the lower of two). */
  access?: AccessLevel
}

const LEVELS: readonly AccessLevel[] = ['read', 'edit', 'full']
const lower = (a: AccessLevel, b: AccessLevel) => (LEVELS.indexOf(a) <= LEVELS.indexOf(b) ? a : b)

export interface McpProject {
  root: string
  caller: McpCaller
  /** The running daemon, looked up afresh on each call (it may start or stop while the server runs). */
  daemon(): Promise<DaemonSession | null>
  /** The daemon, or `daemon_required` naming what needed it. */
  requireDaemon(what: string): Promise<DaemonSession>
  /** The project's files, as the daemon's readers take them. */
  reader: LocalReader
  /** Refuses a project write when the caller is a member whose level is `read`. */
  assertMayWrite(what: string): Promise<void>
}

/** The error a write (or an ask) without a daemon ends with: the tool's answer says it, the server goes on. */
export const daemonRequired = (what: string) =>
  new MeshError('unavailable', 'daemon_required', `${what} needs the project's daemon, and none runs: start it with \`mesh serve\` (or \`mesh serve --detach\`); without it mesh mcp only reads`)

export async function openMcpProject(root: string, caller: McpCaller): Promise<McpProject> {
  const [{sessionIfRunning}, {meshPath}] = await Promise.all([import('../daemon-session.js'), import('../../standard/project/project-root.js')])
  const reader: LocalReader = {root, meshPath: (...parts: string[]) => meshPath(root, ...parts), debug: {log: () => undefined}}
  const daemon = async () => (await sessionIfRunning(root)).session
  const requireDaemon = async (what: string) => {
    const session = await daemon()
    if (!session) throw daemonRequired(what)
    return session
  }
  return {
    root,
    caller,
    daemon,
    requireDaemon,
    reader,
    async assertMayWrite(what) {
      if (caller.by === BY_OPERATOR && caller.access === undefined) return
      const own = caller.by === BY_OPERATOR ? 'full' : await accessOf(await requireDaemon(what), caller.by)
      const level = caller.access ? lower(own, caller.access) : own
      // issue 19, Access: `read` is "no file edits, no shell writes"; a task or queue file is a file edit.
      if (level === 'read') throw forbidden('access_read_only', `${caller.by} runs at access level read here: ${what} writes a project file, which needs edit or full (\`access:\` in clients.yaml)`)
    },
  }
}

/** The member's level as the daemon reports it (`GET /team`); an unknown member or a refused entry is an error. */
async function accessOf(session: DaemonSession, member: string): Promise<AccessLevel> {
  const {members} = await session.call<{members: Array<{id: string; access: AccessLevel | null}>}>('GET', '/team')
  const found = members.find((entry) => entry.id === member)
  if (!found) throw new MeshError('invalid', 'unknown_member', `--member: no team member "${member}" in .mesh/team/`)
  if (found.access === null) throw forbidden('access_refused', `the access entry of ${member} in clients.yaml cannot be used; its writes are refused until it is fixed`)
  return found.access
}
