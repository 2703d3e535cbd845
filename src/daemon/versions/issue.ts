/**
 * `POST /version/next` (spec: Endpoints — versions are issued by the daemon,
 * never invented locally; DECISIONS: kept per module in links.yaml
 * `repo.version`). The module is the task's `category`. Reading the stored
 * version, bumping it and writing it back happen under updateLinks's locks
 * (in-process order + `.mesh/.runtime/links.lock`), so no two callers — in
 * this daemon or another process — ever get the same version.
 */
import {isMap, isScalar, type Document} from 'yaml'
import {conflict} from '../../lib/errors.js'
import {MODULE_ID} from '../../standard/constants.js'
import {readClusterInfo, type TaskRecord} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {ensureEntry, updateLinks} from '../links/links-file.js'
import {applyLinksPatch} from '../links/patch.js'
import {findTaskForDaemon} from '../tasks/lookup.js'
import {bumpVersion, FIRST_VERSION, parseVersion, type Bump} from './semver.js'

export interface VersionRequest {
  bump: Bump
  task_id: string
}

export interface IssuedVersion {
  version: string
  /** The task's id as its file writes it. */
  task_id: string
  module: string
}

/** The task's module: its `category`, or the module folder it lives in when it has none. */
async function moduleOf(context: DaemonContext, record: TaskRecord): Promise<string> {
  const category = record.data.category
  const module = typeof category === 'string' && category !== '' ? category : record.module
  const known = MODULE_ID.test(module) && (await readClusterInfo(context.root)).modules.some((entry) => entry.id === module)
  if (!known) throw conflict('task_module_invalid', `${record.relativePath}: category "${module.slice(0, 40)}" is not a module of .mesh/public/cluster.yaml; fix the task`)
  return module
}

/** The stored `repo.version` of the entry at `index`, or FIRST_VERSION when there is none yet. */
function storedVersion(document: Document, index: number, module: string): [number, number, number] {
  const repo = document.getIn(['modules', index, 'repo'], true)
  const node = isMap(repo) ? repo.get('version', true) : undefined
  if (node === undefined || (isScalar(node) && node.value === null)) return parseVersion(FIRST_VERSION)!
  const value = isScalar(node) ? node.value : undefined
  const parsed = typeof value === 'string' ? parseVersion(value) : null
  if (!parsed) {
    const shown = isScalar(node) ? JSON.stringify(value) : 'not a scalar'
    throw conflict('version_unreadable', `.mesh/public/links.yaml: modules[${index}].repo.version of ${module} is ${shown}, not MAJOR.MINOR.PATCH; fix it by hand`, {field: `modules[${index}].repo.version`})
  }
  return parsed
}

/** Issues the next version of the task's module and publishes `version.issued`. */
export async function issueVersion(context: DaemonContext, request: VersionRequest): Promise<IssuedVersion> {
  const record = await findTaskForDaemon(context.root, request.task_id)
  const module = await moduleOf(context, record)
  const {result: version} = await updateLinks(context, {
    module,
    reason: 'version.next',
    mutate(document) {
      const {index, entry} = ensureEntry(document, module)
      const next = bumpVersion(storedVersion(document, index, module), request.bump)
      // The merge of POST /links: `repo` is created in the spec's key order, other keys stay.
      applyLinksPatch(document, entry, {repo: {version: next}}, index)
      return next
    },
  })
  context.events.publish('version.issued', {module, version, task_id: record.id, bump: request.bump})
  return {version, task_id: record.id, module}
}
