import {MESH_DIR, PROJECT_CHILDREN, PROJECT_MODULE, STANDARD_PATHS} from '../../constants.js'
import type {ProjectFile} from '../../project/index.js'
import {filesOf, recordOf, type ClusterView, type ModuleEntry, type RuleContext} from '../rule-context.js'

/** Reads modules[] of cluster.yaml leniently (schema findings say what is malformed). */
export function readCluster(file: ProjectFile | undefined): ClusterView | undefined {
  const data = file && recordOf(file)
  if (!file || !data || !Array.isArray(data.modules)) return undefined
  const modules: ModuleEntry[] = []
  data.modules.forEach((raw: unknown, index: number) => {
    if (raw === null || typeof raw !== 'object') return
    const entry = raw as Record<string, unknown>
    if (typeof entry.id !== 'string') return
    const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string) : undefined)
    modules.push({id: entry.id, kind: text('kind'), parent: text('parent'), path: text('path'), index})
  })
  return {file, modules, moduleIds: new Set(modules.map((module) => module.id))}
}

/** cluster.yaml cross-checks: unique ids, parents, the v13 structure, members, links.yaml, module folders. */
export function checkCluster(context: RuleContext): void {
  const {cluster, findings} = context
  if (!cluster) return
  const {file, modules} = cluster
  const seen = new Set<string>()
  for (const module of modules) {
    const pointer = `/modules/${module.index}`
    if (seen.has(module.id)) findings.add(file, 'module-duplicate', `module id "${module.id}" appears more than once`, {pointer: `${pointer}/id`})
    seen.add(module.id)
    if (module.parent !== undefined && !cluster.moduleIds.has(module.parent)) {
      findings.add(file, 'module-parent', `module "${module.id}" has parent "${module.parent}", which is not a module`, {pointer: `${pointer}/parent`})
    } else if (module.parent === module.id) {
      findings.add(file, 'module-parent', `module "${module.id}" is its own parent`, {pointer: `${pointer}/parent`})
    }
  }
  checkParentLoops(cluster, context)
  checkProjectStructure(cluster, context)
  checkMembers(file, context)
  checkTransport(file, context)
  checkLinks(cluster, context)
  checkModuleFolders(cluster, context)
}

/** Parents form a tree: a chain of two or more modules that leads back to itself is reported once, on its first module. */
function checkParentLoops({file, modules}: ClusterView, {findings}: RuleContext): void {
  const parentOf = new Map<string, string | undefined>()
  for (const module of modules) if (!parentOf.has(module.id)) parentOf.set(module.id, module.parent)
  const reported = new Set<string>()
  for (const module of modules) {
    if (reported.has(module.id)) continue
    const chain = [module.id]
    for (let parent = parentOf.get(module.id); parent !== undefined && parentOf.has(parent); parent = parentOf.get(parent)) {
      if (parent === module.id) {
        if (chain.length > 1) {
          for (const id of chain) reported.add(id)
          findings.add(file, 'module-parent', `module parents loop: ${[...chain, module.id].join(' → ')}`, {pointer: `/modules/${module.index}/parent`})
        }
        break
      }
      if (chain.includes(parent)) break // a loop further up; reported from one of its own modules
      chain.push(parent)
    }
  }
}

/** spec v13: one `project` area without parent or path; its four children; code modules are its peers with a path. */
function checkProjectStructure({file, modules}: ClusterView, {findings}: RuleContext): void {
  const add = (message: string, pointer: string) => findings.add(file, 'project-structure', message, {pointer})
  const projects = modules.filter((module) => module.id === PROJECT_MODULE)
  // A missing `project` or `general` is already a schema finding (modules must include them).
  for (const extra of projects.slice(1)) add('only one `project` module is allowed', `/modules/${extra.index}`)
  const project = projects[0]
  if (project) {
    if (project.kind !== 'area') add('the `project` module must have kind `area`', `/modules/${project.index}/kind`)
    if (project.parent !== undefined) add('the `project` module has no parent', `/modules/${project.index}/parent`)
    if (project.path !== undefined) add('the `project` module has no path', `/modules/${project.index}/path`)
  }
  for (const child of PROJECT_CHILDREN) {
    const module = modules.find((entry) => entry.id === child)
    if (!module) {
      if (child !== 'general') add(`module \`${child}\` is missing: v13 requires deploy, docs, design and general under \`project\``, '/modules')
    } else if (module.parent !== PROJECT_MODULE) {
      add(`module \`${child}\` must carry \`parent: project\``, `/modules/${module.index}${module.parent === undefined ? '' : '/parent'}`)
    }
  }
  for (const module of modules) {
    if (module.kind !== 'code') continue
    if (module.path === undefined) add(`code module \`${module.id}\` needs a \`path\``, `/modules/${module.index}`)
    if (module.parent !== undefined) add(`code module \`${module.id}\` is a peer of \`project\` and has no parent`, `/modules/${module.index}/parent`)
  }
}

/** The entries of a YAML list that carry a string `id`, with their index and whether the id came earlier in the list. */
function idEntries(list: unknown): Array<{id: string; index: number; repeated: boolean}> {
  if (!Array.isArray(list)) return []
  const seen = new Set<string>()
  const entries: Array<{id: string; index: number; repeated: boolean}> = []
  list.forEach((entry: unknown, index) => {
    const id = (entry as {id?: unknown} | null)?.id
    if (typeof id !== 'string') return
    entries.push({id, index, repeated: seen.has(id)})
    seen.add(id)
  })
  return entries
}

function checkMembers(file: ProjectFile, {findings}: RuleContext): void {
  for (const {id, index, repeated} of idEntries(recordOf(file)?.members)) {
    if (repeated) findings.add(file, 'member-duplicate', `member id "${id}" appears more than once`, {pointer: `/members/${index}/id`})
  }
}

/** A socket the daemon can join: ws(s), or http(s) naming a relay cluster socket (as the daemon reads it; docs/daemon.md, Transport). */
const isJoinable = (raw: string) => {
  try {
    const url = new URL(raw)
    return url.protocol === 'ws:' || url.protocol === 'wss:' || ((url.protocol === 'http:' || url.protocol === 'https:') && /\/clusters\/[^/]+\/ws\/?$/.test(url.pathname))
  } catch {
    return false
  }
}

/** `transport`: a workflow no daemon serves is refused with the reason, not skipped silently at run time (issue 23). */
function checkTransport(file: ProjectFile, {findings}: RuleContext): void {
  const transport = recordOf(file)?.transport
  if (!transport || typeof transport !== 'object') return
  const {workflow, endpoint, fallback} = transport as Record<string, unknown>
  if (workflow === 'sse' || workflow === 'nats') {
    findings.add(file, 'transport-workflow', `transport.workflow is ${workflow}: mesh does not serve a ${workflow} transport — the daemon joins a project's channel only as a WebSocket member of a relay cluster, so it would never connect; use websocket (\`mesh cluster link\` writes it)`, {pointer: '/transport/workflow'})
  } else if (typeof endpoint === 'string' && !isJoinable(endpoint)) {
    findings.add(file, 'transport-workflow', `transport.endpoint ${endpoint.replace(/[?#].*$/s, '')} is not a ws:// or wss:// URL nor a relay cluster socket (/v1/clusters/<id>/ws): the daemon would not connect to it`, {pointer: '/transport/endpoint'})
  }
  if (typeof fallback === 'string' && !isJoinable(fallback)) {
    findings.add(file, 'transport-workflow', `transport.fallback ${fallback.replace(/[?#].*$/s, '')} is not a ws:// or wss:// URL nor a relay cluster socket: the daemon would not use it`, {pointer: '/transport/fallback'})
  }
}

function checkLinks(cluster: ClusterView, context: RuleContext): void {
  for (const file of filesOf(context, 'links')) {
    for (const {id, index, repeated} of idEntries(recordOf(file)?.modules)) {
      const pointer = {pointer: `/modules/${index}/id`}
      if (!cluster.moduleIds.has(id)) context.findings.add(file, 'links-module', `links entry "${id}" is not a module of cluster.yaml`, pointer)
      else if (repeated) context.findings.add(file, 'links-module', `links entry "${id}" appears more than once`, pointer)
    }
  }
}

/** Every modules/<id>/ folder is a cluster.yaml module (reported once per folder, on its first file). */
function checkModuleFolders(cluster: ClusterView, context: RuleContext): void {
  const reported = new Set<string>()
  for (const file of context.project.files) {
    if (!file.module || reported.has(file.module) || cluster.moduleIds.has(file.module)) continue
    reported.add(file.module)
    context.findings.add(
      `${MESH_DIR}/${STANDARD_PATHS.modules}/${file.module}/`,
      'module-folder',
      `folder modules/${file.module}/ is not a module of cluster.yaml`,
    )
  }
}
