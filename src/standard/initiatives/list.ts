import {listContainedFolder, readContainedText} from '../../lib/contained-files.js'
import {compareIds, compareText} from '../compare.js'
import {describeReadError, parseFrontmatter} from '../frontmatter.js'
import {meshPath} from '../project/project-root.js'
import {scanTasks, type TaskRecord} from '../tasks/task-files.js'
import {INITIATIVES_DIR} from './constants.js'

export interface InitiativeSummary {
  id: string
  title: string
  status: string
  owner: string
  created: string | null
  updated: string | null
  modules: string[]
  tags: string[]
  parent_initiative: string | null
  /** Task ids (active and archived) whose `initiative` is this one. */
  tasks: string[]
  /** How many of those are `done`. */
  done: number
  path: string
  /** Why the file could not be read, if it could not. */
  problem?: string
}

const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])
const optional = (value: unknown) => (typeof value === 'string' ? value : null)

/** Every initiative file, sorted by id, with the ids of the tasks that point at it. */
export async function listInitiatives(root: string, tasks?: TaskRecord[]): Promise<InitiativeSummary[]> {
  // Never through a link (issue 18): a linked folder lists nothing, a linked file is an initiative with a problem.
  const names = (await listContainedFolder(meshPath(root), INITIATIVES_DIR).catch(() => [])).map((entry) => entry.name).filter((name) => name.endsWith('.md') && !name.startsWith('.')).sort()
  const records = tasks ?? (await scanTasks(root))
  const result: InitiativeSummary[] = []
  for (const name of names) {
    const stem = name.slice(0, -3)
    let data: Record<string, unknown> = {}
    let problem: string | undefined
    try {
      const parsed = parseFrontmatter((await readContainedText(meshPath(root), `${INITIATIVES_DIR}/${name}`)) ?? '').data
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed
    } catch (error) {
      problem = describeReadError(error, 2)
    }
    const id = typeof data.id === 'string' ? data.id : stem
    const children = records.filter((record) => record.data.initiative === id)
    result.push({
      id,
      title: typeof data.title === 'string' ? data.title : '',
      status: typeof data.status === 'string' ? data.status : '',
      owner: typeof data.owner === 'string' ? data.owner : '',
      created: optional(data.created),
      updated: optional(data.updated),
      modules: strings(data.modules),
      tags: strings(data.tags),
      parent_initiative: optional(data.parent_initiative),
      tasks: children.map((record) => record.id).sort(compareIds),
      done: children.filter((record) => record.data.status === 'done').length,
      path: `.mesh/${INITIATIVES_DIR}/${name}`,
      ...(problem ? {problem} : {}),
    })
  }
  return result.sort((a, b) => compareText(a.id, b.id))
}
