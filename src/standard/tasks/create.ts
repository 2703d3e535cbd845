import {access} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {invalid, notFound} from '../../lib/errors.js'
import {TASK_PRIORITIES} from '../constants.js'
import {stringifyFrontmatter} from '../frontmatter.js'
import {INITIATIVES_DIR} from '../initiatives/constants.js'
import {knownPrefixes, reserveTaskId} from './allocate.js'
import {readClusterInfo} from './cluster-modules.js'
import {DEFAULT_TASK_OWNER, DEFAULT_TASK_PRIORITY, DEFAULT_TASK_STATUS, MODULES_DIR, TASK_BODY_SECTIONS, TASKS_DIR} from './constants.js'
import {resolvePrefixes} from './prefix.js'
import {meshPath, utcDate} from '../project/project-root.js'
import {assertSlug, slugify} from './slug.js'
import {writtenStatus} from './status.js'
import {idsOf, scanTasks, type TaskRecord} from './task-files.js'

export interface CreateTaskInput {
  module: string
  title: string
  slug?: string
  status?: string
  priority?: string
  owner?: string
  initiative?: string
  dependsOn?: string[]
  tags?: string[]
  /** Injected clock (tests); defaults to now. */
  now?: Date
  /** Writes the new file (default: an atomic write); the daemon passes its snapshotting writer. */
  write?: (absolutePath: string, text: string) => Promise<void>
  /** The project's task records when the caller holds them (the daemon's index); default: a scan. */
  records?: TaskRecord[]
}

export interface CreatedTask {
  id: string
  module: string
  slug: string
  /** Path from the repository root. */
  path: string
  frontmatter: Record<string, unknown>
}

/** The body of a new task: the spec's three sections with a hint each. */
export function newTaskBody(): string {
  const hints: Record<(typeof TASK_BODY_SECTIONS)[number], string> = {
    Scope: '<!-- What this task changes, and what it deliberately leaves out. -->',
    'Done when': '<!-- Checkable outcomes: tests, behaviour, docs. -->',
    Files: '<!-- The files or folders this task is expected to touch. -->',
  }
  return TASK_BODY_SECTIONS.map((section) => `\n## ${section}\n\n${hints[section]}\n`).join('')
}

/**
 * Creates `.mesh/modules/<module>/tasks/<ID>-<slug>.md` with the next free id
 * of the module's prefix (see reserveTaskId for why two processes never clash).
 */
export async function createTask(root: string, input: CreateTaskInput): Promise<CreatedTask> {
  const title = input.title.trim()
  if (title === '' || /[\r\n]/.test(title)) throw invalid('usage_title_invalid', 'A task title is one non-empty line.', {field: 'title'})
  const cluster = await readClusterInfo(root)
  if (!cluster.modules.some((module) => module.id === input.module)) {
    throw notFound('module_unknown', `No module "${input.module}" in cluster.yaml; known: ${cluster.modules.map((m) => m.id).join(', ') || 'none'}.`, {field: 'module'})
  }
  const priority = input.priority ?? DEFAULT_TASK_PRIORITY
  if (!(TASK_PRIORITIES as readonly string[]).includes(priority)) {
    throw invalid('usage_priority_invalid', `Priority must be one of ${TASK_PRIORITIES.join(', ')}.`, {field: 'priority'})
  }
  const status = writtenStatus(input.status ?? DEFAULT_TASK_STATUS)
  const slug = input.slug === undefined ? slugify(title) : assertSlug(input.slug)
  const owner = (input.owner ?? DEFAULT_TASK_OWNER).trim()
  if (owner === '') throw invalid('usage_owner_invalid', 'The owner must not be empty.', {field: 'owner'})

  const records = input.records ?? (await scanTasks(root))
  const existingIds = new Set(records.flatMap(idsOf))
  const dependsOn = [...new Set(input.dependsOn ?? [])]
  for (const dependency of dependsOn) {
    if (!existingIds.has(dependency)) throw notFound('task_unknown', `depends-on: no task "${dependency}" in this project.`, {field: 'depends_on'})
  }
  if (input.initiative !== undefined) {
    const initiativePath = meshPath(root, INITIATIVES_DIR, `${input.initiative}.md`)
    if (!(await access(initiativePath).then(() => true, () => false))) {
      throw notFound('initiative_unknown', `No initiative "${input.initiative}" (.mesh/${INITIATIVES_DIR}/${input.initiative}.md); create it with \`mesh initiative create\`.`, {field: 'initiative'})
    }
  }

  const prefix = resolvePrefixes(cluster.modules, knownPrefixes(records)).get(input.module)!
  const reservation = await reserveTaskId(root, prefix, records)
  try {
    const today = utcDate(input.now ?? new Date())
    const frontmatter: Record<string, unknown> = {
      id: reservation.id,
      title,
      status,
      priority,
      owner,
      category: input.module,
      created: today,
      updated: today,
      ...(input.initiative === undefined ? {} : {initiative: input.initiative}),
      ...(dependsOn.length > 0 ? {depends_on: dependsOn} : {}),
      ...(input.tags && input.tags.length > 0 ? {tags: [...new Set(input.tags)]} : {}),
    }
    const relativePath = [`.mesh`, MODULES_DIR, input.module, TASKS_DIR, `${reservation.id}-${slug}.md`].join('/')
    await (input.write ?? writeFileAtomic)(join(root, relativePath), stringifyFrontmatter(frontmatter, newTaskBody()))
    return {id: reservation.id, module: input.module, slug, path: relativePath, frontmatter}
  } finally {
    await reservation.release()
  }
}
