/**
 * Whether a pid still names a process: the test every owner of a pid file
 * makes (the daemon's runtime file and lock, the links lock, the temp-file
 * sweep) before it takes over what a dead process left behind.
 */

/** Whether a process with this pid exists (EPERM: it exists but is not ours). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
