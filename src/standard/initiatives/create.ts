import {access} from 'node:fs/promises'
import {conflict, invalid, notFound} from '../../lib/errors.js'
import {stringifyFrontmatter} from '../frontmatter.js'
import {readClusterInfo} from '../tasks/cluster-modules.js'
import {meshPath, utcDate} from '../project/project-root.js'
import {assertSlug, slugify} from '../tasks/slug.js'
import {DEFAULT_INITIATIVE_OWNER, DEFAULT_INITIATIVE_STATUS, INITIATIVE_BODY_SECTIONS, INITIATIVE_STATUSES, INITIATIVES_DIR} from './constants.js'
import {createFileExclusive} from '../../lib/exclusive-create.js'

export interface CreateInitiativeInput {
  title: string
  /** Slug id; derived from the title when absent. */
  id?: string
  status?: string
  owner?: string
  modules?: string[]
  tags?: string[]
  parentInitiative?: string
  now?: Date
  /**
   * Creates the file only when no file has that name, answering whether it
   * did (default: an exclusive create); the daemon passes one through its
   * project writer.
   */
  create?: (absolutePath: string, text: string) => Promise<boolean>
}

export interface CreatedInitiative {
  id: string
  path: string
  frontmatter: Record<string, unknown>
}

/** The body of a new initiative: the spec's three sections with a hint each. */
export function newInitiativeBody(): string {
  const hints: Record<(typeof INITIATIVE_BODY_SECTIONS)[number], string> = {
    'Why this exists': '<!-- The problem or opportunity, and who asked for it. -->',
    'Done when': '<!-- Checkable outcomes that close this initiative. -->',
    'Task plan': '<!-- The tasks, in order, as #<task-id> mentions once they exist. -->',
  }
  return INITIATIVE_BODY_SECTIONS.map((section) => `\n## ${section}\n\n${hints[section]}\n`).join('')
}

const exists = (path: string) => access(path).then(() => true, () => false)
const pathOf = (root: string, id: string) => meshPath(root, INITIATIVES_DIR, `${id}.md`)

/**
 * Creates `.mesh/roadmap/initiatives/<id>.md`. A derived id that is taken
 * gets `-2`, `-3`, …; an id given explicitly that is taken is a conflict.
 */
export async function createInitiative(root: string, input: CreateInitiativeInput): Promise<CreatedInitiative> {
  const title = input.title.trim()
  if (title === '' || /[\r\n]/.test(title)) throw invalid('usage_title_invalid', 'An initiative title is one non-empty line.', {field: 'title'})
  const status = input.status ?? DEFAULT_INITIATIVE_STATUS
  if (!(INITIATIVE_STATUSES as readonly string[]).includes(status)) {
    throw invalid('usage_status_invalid', `Initiative status must be one of ${INITIATIVE_STATUSES.join(', ')}.`, {field: 'status'})
  }
  const owner = (input.owner ?? DEFAULT_INITIATIVE_OWNER).trim()
  if (owner === '') throw invalid('usage_owner_invalid', 'The owner must not be empty.', {field: 'owner'})
  const modules = [...new Set(input.modules ?? [])]
  if (modules.length > 0) {
    const known = new Set((await readClusterInfo(root)).modules.map((module) => module.id))
    for (const module of modules) {
      if (!known.has(module)) throw notFound('module_unknown', `No module "${module}" in cluster.yaml.`, {field: 'modules'})
    }
  }
  if (input.parentInitiative !== undefined && !(await exists(pathOf(root, input.parentInitiative)))) {
    throw notFound('initiative_unknown', `No parent initiative "${input.parentInitiative}".`, {field: 'parent_initiative'})
  }

  const explicit = input.id !== undefined
  const base = explicit ? assertSlug(input.id!, 'id') : slugify(title, 'initiative')
  const today = utcDate(input.now ?? new Date())
  for (let attempt = 1; attempt < 1000; attempt++) {
    const suffix = attempt === 1 ? '' : `-${attempt}`
    const id = attempt === 1 ? base : `${base.slice(0, 32 - suffix.length).replace(/-+$/, '')}${suffix}`
    const frontmatter: Record<string, unknown> = {
      id,
      title,
      status,
      owner,
      created: today,
      updated: today,
      ...(modules.length > 0 ? {modules} : {}),
      ...(input.tags && input.tags.length > 0 ? {tags: [...new Set(input.tags)]} : {}),
      ...(input.parentInitiative === undefined ? {} : {parent_initiative: input.parentInitiative}),
    }
    if (await (input.create ?? createFileExclusive)(pathOf(root, id), stringifyFrontmatter(frontmatter, newInitiativeBody()))) {
      return {id, path: `.mesh/${INITIATIVES_DIR}/${id}.md`, frontmatter}
    }
    if (explicit) throw conflict('initiative_exists', `Initiative "${id}" already exists (.mesh/${INITIATIVES_DIR}/${id}.md).`, {field: 'id'})
  }
  throw conflict('initiative_exists', `No free id for "${base}".`)
}
