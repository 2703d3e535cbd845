/**
 * What the runbook routes answer: the list of a folder's runbooks, one
 * runbook's markdown and frontmatter, and its latest run logs (spec:
 * Endpoints, Workflow file). Ids come from file names, so a runbook whose
 * frontmatter is broken still shows up, with its `problem`.
 */
import {notFound} from '../../lib/errors.js'
import {MONTH_FOLDER} from '../../standard/constants.js'
import {RUN_LOGS_LIMIT} from '../constants.js'
import type {DaemonContext} from '../context.js'
import {readFrontmatterFile, realFolderEntries, stringOrNull} from './files.js'
import {RUN_LOG_FILE, RUN_LOG_FOLDER, type RunbookKind} from './kinds.js'

export interface RunbookSummary {
  id: string
  /** Relative to `.mesh/`. */
  path: string
  title: string | null
  scope: string | null
  status: string | null
  updated: string | null
  log_count: number
  /** What is wrong with the file (broken frontmatter, an id used twice…), or null. */
  problem: string | null
}

export interface Runbook {
  id: string
  path: string
  frontmatter: Record<string, unknown> | null
  markdown: string
  log_count: number
  problem: string | null
}

export interface RunLog {
  /** Relative to `.mesh/`. */
  path: string
  workflow: string | null
  date: string | null
  operator: string | null
  agent: string | null
  outcome: string | null
  problem: string | null
}

export interface RunLogPage {
  id: string
  /** Newest first, at most RUN_LOGS_LIMIT. */
  runs: RunLog[]
  /** Every run log of this runbook, also those not in `runs`. */
  total: number
}

interface RunbookFile {
  id: string
  number: number
  name: string
  path: string
}

interface RunLogFile {
  id: string
  date: string
  month: string
  name: string
}

const problemOf = (problems: string[]) => (problems.length > 0 ? problems.join('; ') : null)

/** The runbook files of a folder, by number then file name (W2 before W10). */
async function runbookFiles(context: DaemonContext, kind: RunbookKind): Promise<RunbookFile[]> {
  const files: RunbookFile[] = []
  for (const entry of await realFolderEntries(context, kind.folder)) {
    // A link is not a runbook: never listed, never read (issue 18).
    const match = entry.isFile() ? kind.file.exec(entry.name) : null
    if (match) files.push({id: match[1], number: Number(match[1].slice(1)), name: entry.name, path: `${kind.folder}/${entry.name}`})
  }
  return files.sort((a, b) => a.number - b.number || a.id.length - b.id.length || a.name.localeCompare(b.name))
}

/** Every run log under `<folder>/log/<YYYY-MM>/`, newest first (date of the name, then name). */
async function runLogFiles(context: DaemonContext, kind: RunbookKind): Promise<RunLogFile[]> {
  const logs: RunLogFile[] = []
  for (const month of await realFolderEntries(context, `${kind.folder}/${RUN_LOG_FOLDER}`)) {
    if (!month.isDirectory() || !MONTH_FOLDER.test(month.name)) continue
    for (const entry of await realFolderEntries(context, `${kind.folder}/${RUN_LOG_FOLDER}/${month.name}`)) {
      const match = entry.isFile() ? RUN_LOG_FILE.exec(entry.name) : null
      if (match) logs.push({id: match[1], date: match[2], month: month.name, name: entry.name})
    }
  }
  return logs.sort((a, b) => b.date.localeCompare(a.date) || b.month.localeCompare(a.month) || b.name.localeCompare(a.name))
}

const countById = (logs: RunLogFile[]) => logs.reduce((counts, log) => counts.set(log.id, (counts.get(log.id) ?? 0) + 1), new Map<string, number>())

/** Problems a runbook has beyond its own frontmatter: an id that differs from its name, an id used twice. */
function crossProblems(file: RunbookFile, frontmatter: Record<string, unknown> | null, firstWithId: Map<string, string>): string[] {
  const problems: string[] = []
  const declared = frontmatter?.id
  if (typeof declared === 'string' && declared !== file.id) problems.push(`the frontmatter id ${declared} differs from the file name's ${file.id}`)
  const first = firstWithId.get(file.id)
  if (first !== undefined && first !== file.path) problems.push(`id ${file.id} is also used by ${first}, which the routes serve`)
  return problems
}

const firstPaths = (files: RunbookFile[]) => files.reduce((first, file) => (first.has(file.id) ? first : first.set(file.id, file.path)), new Map<string, string>())

export async function listRunbooks(context: DaemonContext, kind: RunbookKind): Promise<RunbookSummary[]> {
  const files = await runbookFiles(context, kind)
  const counts = countById(await runLogFiles(context, kind))
  const first = firstPaths(files)
  return Promise.all(
    files.map(async (file) => {
      const read = await readFrontmatterFile(context, file.path, 'workflow')
      return {
        id: file.id,
        path: file.path,
        title: stringOrNull(read.frontmatter, 'title'),
        scope: stringOrNull(read.frontmatter, 'scope'),
        status: stringOrNull(read.frontmatter, 'status'),
        updated: stringOrNull(read.frontmatter, 'updated'),
        log_count: counts.get(file.id) ?? 0,
        problem: problemOf([...read.problems, ...crossProblems(file, read.frontmatter, first)]),
      }
    }),
  )
}

/** The file of a well-formed id (the first by name when two share it); 404 `<kind>_not_found` when none. */
async function findRunbook(context: DaemonContext, kind: RunbookKind, id: string): Promise<{file: RunbookFile; first: Map<string, string>}> {
  const files = await runbookFiles(context, kind)
  const file = files.find((candidate) => candidate.id === id)
  if (!file) throw notFound(`${kind.name}_not_found`, `No ${kind.name} ${id} in .mesh/${kind.folder}/`)
  return {file, first: firstPaths(files)}
}

export async function readRunbook(context: DaemonContext, kind: RunbookKind, id: string): Promise<Runbook> {
  const {file, first} = await findRunbook(context, kind, id)
  const read = await readFrontmatterFile(context, file.path, 'workflow')
  const logs = await runLogFiles(context, kind)
  return {
    id,
    path: file.path,
    frontmatter: read.frontmatter,
    markdown: read.markdown,
    log_count: countById(logs).get(id) ?? 0,
    problem: problemOf([...read.problems, ...crossProblems(file, read.frontmatter, first)]),
  }
}

export async function listRuns(context: DaemonContext, kind: RunbookKind, id: string): Promise<RunLogPage> {
  await findRunbook(context, kind, id)
  const logs = (await runLogFiles(context, kind)).filter((log) => log.id === id)
  const runs = await Promise.all(
    logs.slice(0, RUN_LOGS_LIMIT).map(async (log): Promise<RunLog> => {
      const path = `${kind.folder}/${RUN_LOG_FOLDER}/${log.month}/${log.name}`
      const read = await readFrontmatterFile(context, path, 'run-log')
      const problems = [...read.problems]
      const workflow = stringOrNull(read.frontmatter, 'workflow')
      if (workflow !== null && workflow !== id) problems.push(`workflow is ${workflow} but the file name names ${id}`)
      return {
        path,
        workflow,
        date: stringOrNull(read.frontmatter, 'date'),
        operator: stringOrNull(read.frontmatter, 'operator'),
        agent: stringOrNull(read.frontmatter, 'agent'),
        outcome: stringOrNull(read.frontmatter, 'outcome'),
        problem: problemOf(problems),
      }
    }),
  )
  return {id, runs, total: logs.length}
}
