import {SLUG, TASK_ID_STRICT, TASK_SECTIONS, TASK_STATUS_ALIASES} from '../../constants.js'
import type {ProjectFile} from '../../project/index.js'
import {checkSections, filesOf, recordOf, stemOf, type RuleContext} from '../rule-context.js'

interface TaskEntry {
  file: ProjectFile
  id: string
  data: Record<string, unknown>
}

const ALIASES: ReadonlySet<string> = new Set(TASK_STATUS_ALIASES)

/** Task rules: file names, id shape, status words, duplicates, category, dependencies and cycles, initiatives, sections. */
export function checkTasks(context: RuleContext): void {
  const {findings, cluster} = context
  const initiativeIds = new Set(filesOf(context, 'initiative').map((file) => initiativeId(file)))
  const tasks: TaskEntry[] = []
  const byId = new Map<string, TaskEntry>()
  for (const file of filesOf(context, 'task', 'archived-task')) {
    const data = recordOf(file)
    if (!data || typeof data.id !== 'string') continue
    const entry = {file, id: data.id, data}
    tasks.push(entry)
    const first = byId.get(entry.id)
    if (first) findings.add(file, 'task-duplicate-id', `task id ${entry.id} is already used by ${first.file.path}`, {pointer: '/id'})
    else byId.set(entry.id, entry)
  }
  for (const {file, id, data} of tasks) {
    checkFileName(file, id, context)
    if (!TASK_ID_STRICT.test(id)) findings.add(file, 'task-id-strict', `task id ${id} is accepted but not the strict shape ^[A-Z][A-Z0-9]{0,3}\\d+$ that \`mesh task create\` writes`, {pointer: '/id'})
    if (typeof data.status === 'string' && ALIASES.has(data.status)) {
      findings.add(file, 'task-status-alias', `status "${data.status}" is an accepted extra word; the canonical values are backlog, next, active, blocked, done, draft`, {pointer: '/status'})
    }
    const category = data.category
    if (typeof category === 'string') {
      if (cluster && !cluster.moduleIds.has(category)) findings.add(file, 'task-category', `category "${category}" is not a module of cluster.yaml`, {pointer: '/category'})
      else if (file.module !== undefined && category !== file.module) {
        findings.add(file, 'task-module-folder', `category "${category}" differs from the module folder modules/${file.module}/`, {pointer: '/category'})
      }
    }
    if (Array.isArray(data.depends_on)) {
      data.depends_on.forEach((dependency: unknown, index: number) => {
        if (typeof dependency === 'string' && !byId.has(dependency)) {
          findings.add(file, 'task-depends', `depends_on ${dependency}: no such task (active or archived)`, {pointer: `/depends_on/${index}`})
        }
      })
    }
    for (const key of ['initiative', 'parent_initiative'] as const) {
      const value = data[key]
      if (typeof value === 'string' && !initiativeIds.has(value)) {
        findings.add(file, 'task-initiative', `${key} "${value}" is not an initiative in roadmap/initiatives/`, {pointer: `/${key}`})
      }
    }
    if (file.kind === 'task') checkSections(context, file, 'task-sections', TASK_SECTIONS)
  }
  checkCycles(byId, context)
}

/** An initiative's id: its frontmatter id, else its file stem. */
export function initiativeId(file: ProjectFile): string {
  const id = recordOf(file)?.id
  return typeof id === 'string' ? id : stemOf(file.path)
}

function checkFileName(file: ProjectFile, id: string, {findings}: RuleContext): void {
  const stem = stemOf(file.path)
  if (stem === id) {
    findings.add(file, 'task-filename', `file name has no slug: name it ${id}-<slug>.md`, {line: 1, column: 1}, 'warning')
  } else if (!stem.startsWith(`${id}-`)) {
    findings.add(file, 'task-filename', `file name ${stem}.md does not start with the task id ${id}-`, {pointer: '/id'})
  } else if (!SLUG.test(stem.slice(id.length + 1))) {
    findings.add(file, 'task-filename', `slug "${stem.slice(id.length + 1)}" is not ^[a-z][a-z0-9-]{1,31}$`, {line: 1, column: 1}, 'warning')
  }
}

/** Finds dependency cycles with an iterative depth-first search (task chains can be thousands long). */
function checkCycles(byId: Map<string, TaskEntry>, {findings}: RuleContext): void {
  const state = new Map<string, 1 | 2>() // 1 on the current path, 2 finished
  const reported = new Set<string>()
  const edges = (id: string): string[] => {
    const dependsOn = byId.get(id)?.data.depends_on
    return Array.isArray(dependsOn) ? dependsOn.filter((item): item is string => typeof item === 'string' && byId.has(item)) : []
  }
  for (const start of byId.keys()) {
    if (state.has(start)) continue
    const path: string[] = [start]
    const cursors: number[] = [0]
    const next: string[][] = [edges(start)]
    state.set(start, 1)
    while (path.length > 0) {
      const top = path.length - 1
      const id = path[top]
      const targets = next[top]
      if (cursors[top] >= targets.length) {
        state.set(id, 2)
        path.pop()
        cursors.pop()
        next.pop()
        continue
      }
      const target = targets[cursors[top]++]
      const seen = state.get(target)
      if (seen === 1) {
        const cycle = path.slice(path.indexOf(target))
        const key = [...cycle].sort().join(' ')
        if (reported.has(key)) continue
        reported.add(key)
        const entry = byId.get(target) as TaskEntry
        const index = (entry.data.depends_on as unknown[]).indexOf(cycle.length > 1 ? cycle[1] : target)
        findings.add(entry.file, 'task-cycle', `dependency cycle: ${[...cycle, target].join(' → ')}`, {pointer: index >= 0 ? `/depends_on/${index}` : '/depends_on'})
      } else if (seen === undefined) {
        state.set(target, 1)
        path.push(target)
        cursors.push(0)
        next.push(edges(target))
      }
    }
  }
}
