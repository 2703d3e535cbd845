import {invalid} from '../../lib/errors.js'
import {COMMIT_TYPES, MENTION_TOKEN, TASK_ID_LOOSE} from '../constants.js'
import {checkCommitLinks} from './commit-links.js'
import {ruleInfo} from './rules.js'
import type {Finding, Severity, ValidationReport} from './types.js'

const HEADER = /^(?<type>[A-Za-z]+)(?:\((?<scope>[^()]*)\))?(?<breaking>!)?: (?<subject>\S.*)$/
/** git's own `git revert` header is accepted as a revert. */
const GIT_REVERT = /^Revert ".+"$/
const TASK_SUFFIX = /\s\[([^\]]*)\]$/
const MENTION_CANDIDATE = /(^|[\s(])#([A-Za-z][^\s,;:!?()[\]{}<>'"`]*)/g
const TYPES: ReadonlySet<string> = new Set(COMMIT_TYPES)

/** One commit to check. */
export interface CommitInfo {
  sha: string
  message: string
}

/**
 * Checks one commit message against the spec's commit conventions:
 * `<type>(<scope>): <subject> [<task-id>]`, agent trailers, `#<id>` mentions.
 * Severities: malformed header and unknown type are errors; a missing task
 * id is a warning; a missing scope is info (Conventional Commits allows it).
 */
export function checkCommitMessage({sha, message}: CommitInfo): Finding[] {
  const file = `commit:${sha.slice(0, 12)}`
  const findings: Finding[] = []
  const add = (rule: string, text: string, line = 1, column = 1, severity?: Severity) =>
    findings.push({file, line, column, rule, severity: severity ?? ruleInfo(rule).severity, message: text})
  const lines = message.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n')
  const header = lines[0] ?? ''
  const match = HEADER.exec(header)
  if (GIT_REVERT.test(header)) {
    // git's default revert message: nothing more to check in the header.
  } else if (!match?.groups) {
    add('commit-format', `header "${header.slice(0, 72)}" is not <type>(<scope>): <subject> [<task-id>]`)
  } else {
    const {type, scope, subject} = match.groups
    if (!TYPES.has(type)) add('commit-type', `type "${type}" is not one of ${COMMIT_TYPES.join(', ')}`)
    if (scope === undefined) add('commit-scope', 'no (<scope>): name the module or area the commit touches')
    else if (scope.trim() === '') add('commit-format', 'empty scope "()"', 1, type.length + 1)
    const task = TASK_SUFFIX.exec(subject)
    if (!task) add('commit-task-id', 'the subject does not end with [<task-id>]', 1, header.length)
    else if (!TASK_ID_LOOSE.test(task[1])) add('commit-task-id', `"[${task[1]}]" is not a task id`, 1, header.length - task[0].length + 2)
  }
  checkTrailers(lines, add)
  lines.forEach((text, index) => {
    for (const mention of text.matchAll(MENTION_CANDIDATE)) {
      const token = `#${mention[2].replace(/[.]+$/, '')}`
      if (!MENTION_TOKEN.test(token)) add('commit-mention', `mention ${token} does not match ^#[A-Za-z][A-Za-z0-9_-]{1,31}$`, index + 1, (mention.index ?? 0) + mention[1].length + 1)
    }
  })
  return findings
}

/**
 * spec v12: an agent commit (Agent: trailer) also carries Model: and a
 * Co-authored-by: line. The co-author is the model's: `Model: none` (the
 * local daemon's own commits; docs/daemon.md, Git) names no model, so no
 * co-author line is due.
 */
function checkTrailers(lines: string[], add: (rule: string, text: string, line?: number) => void): void {
  const find = (key: string) => lines.findIndex((line) => line.toLowerCase().startsWith(`${key.toLowerCase()}:`))
  const agent = find('Agent')
  if (agent === -1) return
  const model = find('Model')
  if (model === -1) add('commit-trailers', 'an agent commit (Agent: trailer) needs a Model: <model-id> trailer', agent + 1)
  const noModel = model !== -1 && lines[model].slice('Model:'.length).trim().toLowerCase() === 'none'
  if (!noModel && find('Co-authored-by') === -1) add('commit-trailers', 'an agent commit (Agent: trailer) needs a Co-authored-by: line', agent + 1)
}

/** The commits of a range (`main..HEAD`, `HEAD~5..`, one sha) in `root`, merges left out. */
export async function readCommits(root: string, range: string): Promise<CommitInfo[]> {
  if (range.trim() === '') throw invalid('usage_bad_range', '--commits needs a revision range, e.g. origin/main..HEAD')
  if (range.startsWith('-')) throw invalid('usage_bad_range', `--commits takes a revision range, not an option: ${range}`)
  const {simpleGit} = await import('simple-git')
  const git = simpleGit({baseDir: root})
  let raw: string
  try {
    raw = await git.raw(['log', '--no-merges', '--format=%H%x1f%B%x1e', range, '--'])
  } catch (error) {
    const reason = (error as Error).message.split('\n').find((line) => line.trim() !== '') ?? 'git failed'
    throw invalid('usage_bad_range', `cannot read commits ${range} in ${root}: ${reason.replace(/^fatal:\s*/, '')}`)
  }
  return raw
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x1f'))
    .map((record) => {
      const [sha, message] = record.split('\x1f')
      return {sha: sha.trim(), message}
    })
}

/**
 * Checks every commit of a range — its message, and the links registry's
 * same-commit rule on its files (commit-links.ts); the report has the same
 * shape as a folder's.
 */
export async function validateCommits(root: string, range: string): Promise<ValidationReport> {
  const commits = await readCommits(root, range)
  const {simpleGit} = await import('simple-git')
  const git = simpleGit({baseDir: root})
  const findings: Finding[] = []
  for (const commit of commits) findings.push(...checkCommitMessage(commit), ...(await checkCommitLinks(git, commit.sha)))
  const count = (severity: Severity) => findings.filter((finding) => finding.severity === severity).length
  const summary = {files: commits.length, skipped: 0, errors: count('error'), warnings: count('warning'), infos: count('info')}
  return {root, findings, skipped: [], summary, ok: summary.errors === 0}
}
