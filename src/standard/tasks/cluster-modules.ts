import {isPathRefused, readContainedText} from '../../lib/contained-files.js'
import {parse} from 'yaml'
import {invalid, notFound} from '../../lib/errors.js'
import {describeReadError} from '../frontmatter.js'
import {CLUSTER_FILE} from './constants.js'
import {meshPath} from '../project/project-root.js'

/** The part of a cluster.yaml module entry that task authoring needs. */
export interface ClusterModule {
  id: string
  kind?: string
  name?: string
  parent?: string
  path?: string
  /** Optional explicit prefix of this module's task ids. */
  task_prefix?: string
}

/** The part of cluster.yaml that task authoring and the roadmap need. */
export interface ClusterInfo {
  id?: string
  name?: string
  type?: string
  modules: ClusterModule[]
}

/**
 * Reads `.mesh/public/cluster.yaml` leniently: only `modules[].id` must be
 * usable; full checking is `mesh validate`'s job. YAML 1.2, so dates stay strings.
 */
export async function readClusterInfo(root: string): Promise<ClusterInfo> {
  let text: string | null
  try {
    // Never through a link (issue 18): a linked cluster.yaml is refused as unreadable.
    text = await readContainedText(meshPath(root), CLUSTER_FILE)
  } catch (error) {
    if (isPathRefused(error)) throw invalid('cluster_yaml_invalid', error.message)
    text = null
  }
  if (text === null) throw notFound('cluster_yaml_missing', `No .mesh/${CLUSTER_FILE}; run \`mesh init\` first.`)
  let data: unknown
  try {
    data = parse(text)
  } catch (error) {
    throw invalid('cluster_yaml_invalid', `.mesh/${CLUSTER_FILE} is not valid YAML: ${describeReadError(error)}`)
  }
  const record = (data ?? {}) as Record<string, unknown>
  const rawModules = Array.isArray(record.modules) ? record.modules : []
  const modules: ClusterModule[] = []
  for (const entry of rawModules) {
    if (!entry || typeof entry !== 'object' || typeof (entry as ClusterModule).id !== 'string') continue
    const module = entry as Record<string, unknown>
    modules.push({
      id: module.id as string,
      ...(typeof module.kind === 'string' ? {kind: module.kind} : {}),
      ...(typeof module.name === 'string' ? {name: module.name} : {}),
      ...(typeof module.parent === 'string' ? {parent: module.parent} : {}),
      ...(typeof module.path === 'string' ? {path: module.path} : {}),
      ...(typeof module.task_prefix === 'string' ? {task_prefix: module.task_prefix} : {}),
    })
  }
  return {
    ...(typeof record.id === 'string' ? {id: record.id} : {}),
    ...(typeof record.name === 'string' ? {name: record.name} : {}),
    ...(typeof record.type === 'string' ? {type: record.type} : {}),
    modules,
  }
}
