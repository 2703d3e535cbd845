/**
 * Telling one process from another that later got the same pid (issue 19,
 * Recovery: the daemon kills a client left by a killed daemon only when it
 * is really that client). A process is its pid plus its start: on Linux the
 * boot id and the start time in clock ticks of `/proc/<pid>/stat` (field
 * 22, proc(5)); elsewhere the start time `ps -o lstart=` prints. The same
 * pid with another start is another process.
 */
import {execFile} from 'node:child_process'
import {readdir, readFile} from 'node:fs/promises'
import {setTimeout as sleep} from 'node:timers/promises'
import {promisify} from 'node:util'

const run = promisify(execFile)
const LINUX = process.platform === 'linux'

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses, so fields are counted after its last `)`. */
function startTicks(stat: string): string | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[19] ?? null
}

let bootId: Promise<string> | undefined
const boot = () => (bootId ??= readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((id) => id.trim(), () => 'unknown-boot'))

/** What identifies the process `pid` now, or null when there is none (or it cannot be told). */
export async function processStart(pid: number): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (LINUX) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
    const ticks = stat === null ? null : startTicks(stat)
    return ticks === null ? null : `linux:${await boot()}:${ticks}`
  }
  try {
    const {stdout} = await run('ps', ['-o', 'lstart=', '-p', String(pid)])
    const started = stdout.trim()
    return started ? `ps:${started}` : null
  } catch {
    return null
  }
}

/** Fields 3 and 5 of /proc/<pid>/stat: the state and the process group. */
function stateAndGroup(stat: string): {state: string; pgrp: number} {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {state: fields[0], pgrp: Number(fields[2])}
}

/** On Linux, the pids of the group `pgid` that still run (a zombie waiting to be reaped runs nothing). */
async function runningInGroup(pgid: number): Promise<string[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name))
  const members: string[] = []
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
    if (stat === null) continue
    const {state, pgrp} = stateAndGroup(stat)
    if (pgrp === pgid && state !== 'Z') members.push(pid)
  }
  return members
}

/**
 * True when a process of the group `pgid` still runs. On Linux from /proc, so
 * that zombies do not count: a client orphaned by a killed daemon is reaped by
 * whatever adopted it, which may take its time. Elsewhere `kill(-pgid, 0)`.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  if (LINUX) return (await runningInGroup(pgid)).length > 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * On Linux, whether a process of the group `pgid` carries `marker` (`NAME=value`)
 * in its environment: the leader of a client may have exited while the tools it
 * ran live on in its group; each inherited the turn's MESH_TURN_ID.
 */
export async function groupCarries(pgid: number, marker: string): Promise<boolean> {
  if (!LINUX) return false
  for (const pid of await runningInGroup(pgid)) {
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')
    if (environ.split('\0').includes(marker)) return true
  }
  return false
}

/**
 * On Linux, the process groups of the running processes that carry `marker`
 * (`NAME=value`) in their environment: a client whose record was never
 * written (its daemon killed right after the spawn) is still found by its
 * turn's MESH_TURN_ID. Only the user's own processes can be read, which are
 * the only ones a daemon of theirs started.
 */
export async function groupsCarrying(marker: string): Promise<number[]> {
  if (!LINUX) return []
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name))
  const groups = new Set<number>()
  for (const pid of pids) {
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')
    if (!environ.split('\0').includes(marker)) continue
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
    if (stat === null) continue
    const {state, pgrp} = stateAndGroup(stat)
    if (state !== 'Z' && pgrp > 1) groups.add(pgrp)
  }
  return [...groups]
}

/**
 * SIGTERM to the group, then SIGKILL once `graceMs` has passed with a member
 * still alive. Resolves when the group is empty (or after a last short wait).
 */
export async function stopGroup(pgid: number, graceMs: number, pollMs = 50): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name)
    } catch {
      // Gone already (ESRCH), or not ours (EPERM): nothing more to do here.
    }
  }
  signal('SIGTERM')
  const waitGone = async (ms: number) => {
    for (let waited = 0; waited < ms; waited += pollMs) {
      if (!(await groupAlive(pgid))) return true
      await sleep(pollMs)
    }
    return !(await groupAlive(pgid))
  }
  if (await waitGone(graceMs)) return
  signal('SIGKILL')
  await waitGone(graceMs)
}
