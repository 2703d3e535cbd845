/**
 * Whether a pid still names a process: the test every owner of a pid file
 * makes (the daemon's runtime file and lock, the links lock, the temp-file
 * sweep) before it takes over what a dead process left behind.
 */

import {readFileSync} from 'node:fs'

/** Whether a process with this pid exists (EPERM: it exists but is not ours) and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !isZombie(pid)
}

/**
 * A killed process whose parent has not reaped it yet still answers signal 0
 * (a detached daemon's parent is init, and a container's init may reap late):
 * on Linux its /proc state says it is dead. Elsewhere (no /proc) it counts as alive.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The state follows the command name, which is in parentheses and may hold spaces or ")".
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return state === 'Z' || state === 'X'
  } catch {
    return false
  }
}
