/** Shapes of `mesh validate`'s results. */

export type Severity = 'error' | 'warning' | 'info'

/** One problem found in a project folder (or in a commit message with `--commits`). */
export interface Finding {
  /** Repo-relative path with `/` separators, or `commit:<sha>` for commit checks. */
  file: string
  /** 1-based line and column. */
  line: number
  column: number
  /** Stable rule id (see docs/standard.md, "Validation rules"). */
  rule: string
  severity: Severity
  message: string
}

export interface SkippedEntry {
  path: string
  reason: string
  /** A folder that could not be listed (also reported as a `parse` error). */
  unreadable?: boolean
}

export interface ValidationSummary {
  files: number
  skipped: number
  errors: number
  warnings: number
  infos: number
}

/** What `validateProject` returns and `mesh validate --json` prints. */
export interface ValidationReport {
  /** Absolute folder that was validated. */
  root: string
  /** Findings sorted by file, line, column. */
  findings: Finding[]
  /** Paths not read, with why. */
  skipped: SkippedEntry[]
  summary: ValidationSummary
  /** Whether there is no error-level finding (warnings and infos allowed). */
  ok: boolean
}
