/**
 * What a read-only command has to say, apart from how it is printed: its
 * --json result, its lines for stdout and its notes for stderr (neither is
 * printed under --json), and its exit code. The oclif command prints it with
 * MeshCommand.show; bin/run.js's quick path (../quick-run.ts) prints the same
 * without loading oclif (issue 21).
 */
export interface CommandOutcome<T = unknown> {
  result: T
  lines: string[]
  notes: string[]
  /** Set when the command ends non-zero without an error (`mesh daemon status` of a stopped daemon). */
  exitCode?: number
}
