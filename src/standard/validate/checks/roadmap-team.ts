import {INITIATIVE_SECTIONS, QUEUE_ITEM_MAX_BYTES, TEAM_RETIRED_FIELDS} from '../../constants.js'
import type {ProjectFile} from '../../project/index.js'
import {heldActiveMessage, initiativesHeldActive} from '../../initiatives/held-active.js'
import {checkSections, filesOf, recordOf, stemOf, type RuleContext} from '../rule-context.js'
import {initiativeId} from './tasks.js'

/** Initiatives: id equals the file stem, modules exist, the parent exists, the three creation sections. */
export function checkInitiatives(context: RuleContext): void {
  const {findings, cluster} = context
  const files = filesOf(context, 'initiative')
  const ids = new Set(files.map(initiativeId))
  for (const file of files) {
    const data = recordOf(file)
    if (!data) continue
    checkIdStem(file, data.id, 'id', context)
    if (cluster && Array.isArray(data.modules)) {
      data.modules.forEach((module: unknown, index: number) => {
        if (typeof module === 'string' && !cluster.moduleIds.has(module)) {
          findings.add(file, 'initiative-modules', `module "${module}" is not a module of cluster.yaml`, {pointer: `/modules/${index}`})
        }
      })
    }
    const parent = data.parent_initiative
    if (typeof parent === 'string') {
      if (parent === data.id) findings.add(file, 'initiative-parent', 'an initiative cannot be its own parent', {pointer: '/parent_initiative'})
      else if (!ids.has(parent)) findings.add(file, 'initiative-parent', `parent_initiative "${parent}" is not an initiative in roadmap/initiatives/`, {pointer: '/parent_initiative'})
    }
    if (file.hasFrontmatter) checkSections(context, file, 'initiative-sections', INITIATIVE_SECTIONS)
  }
  checkDraftHoldsActive(context, files)
}

/** spec v15: an initiative with a child in `draft` stays `active` (active tasks only; archived ones are history). */
function checkDraftHoldsActive(context: RuleContext, files: ProjectFile[]): void {
  const tasks = filesOf(context, 'task').flatMap((file) => {
    const data = recordOf(file)
    return data && typeof data.id === 'string' && typeof data.status === 'string' ? [{id: data.id, status: data.status, initiative: typeof data.initiative === 'string' ? data.initiative : null}] : []
  })
  const byId = new Map(files.map((file) => [initiativeId(file), file]))
  const initiatives = files.flatMap((file) => {
    const status = recordOf(file)?.status
    return typeof status === 'string' ? [{id: initiativeId(file), status}] : []
  })
  for (const held of initiativesHeldActive(initiatives, tasks)) {
    context.findings.add(byId.get(held.id)!, 'initiative-draft-active', heldActiveMessage(held), {pointer: '/status'})
  }
}

/** Team cards: id equals the file stem; retired v36 fields are accepted with a warning. */
export function checkTeam(context: RuleContext): void {
  for (const file of filesOf(context, 'team')) {
    const data = recordOf(file)
    if (!data) continue
    checkIdStem(file, data.id, 'id', context)
    for (const field of TEAM_RETIRED_FIELDS) {
      if (Object.prototype.hasOwnProperty.call(data, field)) {
        context.findings.add(file, 'team-retired-field', `"${field}" was retired in v36: it is accepted but dropped on the next write`, {pointer: `/${field}`, key: true})
      }
    }
  }
}

/** Queues: `conv` equals the file stem; item texts fit 64 KB in UTF-8. */
export function checkQueues(context: RuleContext): void {
  for (const file of filesOf(context, 'queue')) {
    const data = recordOf(file)
    if (!data) continue
    checkIdStem(file, data.conv, 'conv', context)
    if (!Array.isArray(data.items)) continue
    data.items.forEach((item: unknown, index: number) => {
      const text = (item as {text?: unknown} | null)?.text
      if (typeof text === 'string' && Buffer.byteLength(text, 'utf8') > QUEUE_ITEM_MAX_BYTES) {
        context.findings.add(file, 'queue-item-size', `item ${index} text is ${Buffer.byteLength(text, 'utf8')} bytes; the limit is 64 KB`, {pointer: `/items/${index}/text`})
      }
    })
  }
}

function checkIdStem(file: ProjectFile, id: unknown, key: string, {findings}: RuleContext): void {
  const stem = stemOf(file.path)
  if (typeof id === 'string' && id !== stem) findings.add(file, 'id-stem', `${key} "${id}" differs from the file name ${stem}; they must be equal`, {pointer: `/${key}`})
}
