/**
 * A task's `commit_shas` (spec: Task file — "commit_shas: array of string"):
 * the commits made for it, oldest first. A commit cannot hold its own SHA, so
 * a SHA is added to the task file after its commit (issue 20, deliverable 5;
 * docs/daemon.md, Task bookkeeping).
 */
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {invalid} from '../../lib/errors.js'
import {editFrontmatter} from '../frontmatter.js'
import {decodeUtf8ForRewrite} from '../project/utf8.js'
import {readTaskNow} from './query.js'
import type {TaskRecord} from './task-files.js'

/** A full or abbreviated git object name. */
const SHA = /^[0-9a-f]{7,64}$/

export interface RecordedSha {
  id: string
  path: string
  module: string
  status: string
  completed_at: string | null
  /** False when the SHA was listed already (nothing written). */
  changed: boolean
}

/**
 * Appends `sha` to the task's `commit_shas` (created when missing; a SHA
 * listed already is not added twice). Only that key of the frontmatter
 * changes: `updated` stays, since the task's work did not change. Archived
 * tasks are recorded too: a commit may land after the archive pass.
 */
export async function recordCommitSha(
  root: string,
  id: string,
  sha: string,
  options: {write?: (absolutePath: string, text: string) => Promise<void>; find?: (id: string) => Promise<TaskRecord>} = {},
): Promise<RecordedSha> {
  if (!SHA.test(sha)) throw invalid('invalid_sha', `"${sha.slice(0, 80)}" is not a git commit SHA`, {field: 'sha'})
  // The file as it is now decides, not what a scan or an index read of it before: a hand edit since always wins.
  const {record, bytes} = await readTaskNow(root, id, options.find)
  const base = {
    id: record.id,
    path: record.relativePath,
    module: record.module,
    status: typeof record.data.status === 'string' ? record.data.status : '',
    completed_at: typeof record.data.completed_at === 'string' ? record.data.completed_at : null,
  }
  const listed = Array.isArray(record.data.commit_shas) ? record.data.commit_shas.filter((value): value is string => typeof value === 'string') : []
  if (listed.includes(sha)) return {...base, changed: false}
  const text = decodeUtf8ForRewrite(bytes, record.relativePath)
  let next: string
  try {
    next = editFrontmatter(text, (document) => {
      // A value that is not a list (hand-edited) is replaced by one that keeps its strings.
      document.set('commit_shas', [...listed, sha])
    })
  } catch (error) {
    throw invalid('task_unreadable', `${record.relativePath}: ${(error as Error).message}`)
  }
  await (options.write ?? writeFileAtomic)(record.path, next)
  return {...base, changed: true}
}
