/**
 * Commits made on behalf of a team member — the `mesh-commit` marker of a
 * git-manager's turn, and the hand-off of a developer's files to the
 * git-manager (spec: Commit and agent conventions; docs/daemon.md, Agent
 * commits). Exactly the named files are committed, with the daemon's
 * pathspec technique (src/daemon/git/commit.ts): what else is staged stays
 * staged.
 */
import {stat} from 'node:fs/promises'
import {isAbsolute, posix, resolve} from 'node:path'
import {invalid, isMeshError} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {commitPaths, isDenied, withGit, type CommitOutcome} from '../../git/index.js'
import {MEMBER_ID, readMember} from '../../team/index.js'
import {memberCommitMessage} from './commit-message.js'
import {COMMIT_CREATED_EVENT, RESOLUTION_TAG} from './constants.js'

export interface MemberCommitInput {
  /** The member the commit is made for (`Agent:`, the co-author). */
  member: string
  /** The model its turn ran with (`Model:`). */
  model: string
  /** A Conventional Commit subject; ` [<task>]` is added when missing. */
  subject: string
  /** Paths relative to the repository root. */
  files: string[]
  body?: string
  task?: string
}

/** The task id a committed subject ends with: ` [API1]`. */
const COMMIT_TASK = /\s\[([A-Za-z][A-Za-z0-9_-]{1,31})\]$/

const refused = (file: string, why: string) => invalid('commit_path_refused', `${JSON.stringify(file.slice(0, 200))} ${why}`, {field: 'files'})

/**
 * The files as git will be given them: relative to the repository root,
 * normalised, inside it, not in `.git/` nor on the spec's deny-list
 * (`.mesh/credentials/`, `.mesh/.runtime/`…), and not a folder (a folder
 * would commit everything under it).
 */
export async function commitPathsOf(root: string, files: unknown): Promise<string[]> {
  if (!Array.isArray(files) || files.length === 0) throw invalid('commit_files_invalid', 'files: name at least one file to commit', {field: 'files'})
  const paths = new Set<string>()
  for (const file of files) {
    if (typeof file !== 'string' || file.trim() === '' || file.includes('\0')) throw invalid('commit_files_invalid', 'files: each file is a non-empty path', {field: 'files'})
    if (isAbsolute(file)) throw refused(file, 'is absolute: give paths relative to the repository root')
    const path = posix.normalize(file)
    if (path === '.' || path === '..' || path.startsWith('../')) throw refused(file, 'is outside the repository')
    const lower = path.toLowerCase()
    if (lower === '.git' || lower.startsWith('.git/')) throw refused(file, 'is inside .git/')
    // Compared lower-case too: on a case-insensitive disk `.MESH/Credentials/x` is the same file.
    if (isDenied(path) || isDenied(lower)) throw refused(file, 'is on the deny-list (never committed)')
    const info = await stat(resolve(root, path)).catch(() => null)
    if (info?.isDirectory()) throw refused(file, 'is a folder: name its files')
    paths.add(path)
  }
  return [...paths]
}

/** The member's card title for the co-author line; the id when there is no card. */
async function titleOf(context: DaemonContext, member: string): Promise<string | null> {
  try {
    return (await readMember(context, member)).title
  } catch (error) {
    if (isMeshError(error) && error.code === 'member_not_found') return null
    throw error
  }
}

/**
 * Commits exactly `files` for `member`, on the daemon's git runner (after
 * its pending pulls and commits). Bad input throws 400 errors
 * (`commit_subject_invalid`, `commit_files_invalid`, `commit_path_refused`,
 * `commit_model_invalid`, `invalid_id`); git's own refusals are a `failed`
 * outcome. A commit publishes `commit.created`.
 */
export async function commitForMember(context: DaemonContext, input: MemberCommitInput): Promise<CommitOutcome> {
  if (!MEMBER_ID.test(input.member)) throw invalid('invalid_id', `"${String(input.member).slice(0, 40)}" is not a member id`, {field: 'member'})
  const paths = await commitPathsOf(context.root, input.files)
  const title = await titleOf(context, input.member)
  const {subject, message} = memberCommitMessage({...input, title})
  const outcome = await withGit(context, (git) => commitPaths(git, paths, () => ({subject, message})))
  const log = {agent_id: input.member, data: {member: input.member, files: paths}}
  if (outcome.state === 'committed') {
    // spec Logs: `commit.created` is a timeline event; the timeline also publishes it on /events.
    // `task`: the `[<task-id>]` the subject ends with, so the tasks area records the SHA in its commit_shas.
    const task = COMMIT_TASK.exec(outcome.subject)?.[1] ?? null
    context.timeline.append(COMMIT_CREATED_EVENT, {author: input.member, text: outcome.subject, sha: outcome.sha, subject: outcome.subject, files: outcome.files, member: input.member, task})
    context.debug.log({lvl: 'info', tag: RESOLUTION_TAG, msg: `committed ${outcome.sha.slice(0, 12)} ${outcome.subject} for ${input.member}`, ...log})
  } else {
    context.debug.log({lvl: outcome.state === 'failed' ? 'warn' : 'debug', tag: RESOLUTION_TAG, msg: `not committed for ${input.member}: ${outcome.message}`, ...log})
  }
  return outcome
}
