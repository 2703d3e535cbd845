import {readContainedText} from '../../lib/contained-files.js'
import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {compareText} from '../compare.js'
import {MESH_DIR} from '../constants.js'
import {listInitiatives} from '../initiatives/list.js'
import {readClusterInfo} from '../tasks/cluster-modules.js'
import {knownPrefixes} from '../tasks/allocate.js'
import {resolvePrefixes} from '../tasks/prefix.js'
import {meshPath} from '../project/project-root.js'
import {compareIds, summarize, type TaskSummary} from '../tasks/query.js'
import {scanTasks, type TaskRecord} from '../tasks/task-files.js'
import {ROADMAP_FORMAT, ROADMAP_GLOBAL, ROADMAP_STATE_JS, ROADMAP_STATE_JSON} from './constants.js'
import {stableStringify} from './stable-json.js'

/** What `state.json` holds; everything is derived from the committed files. */
export interface RoadmapState {
  format: number
  standard_version: number | null
  cluster: {id: string | null; name: string | null; type: string | null}
  modules: Array<{id: string; kind: string | null; name: string | null; parent: string | null; task_prefix: string; counts: Record<string, number>}>
  initiatives: Array<Record<string, unknown>>
  /** Every readable task, archived ones flagged, each with the dependencies it still waits on. */
  tasks: Array<TaskSummary & {waiting_on: string[]}>
  totals: {tasks: number; initiatives: number; by_status: Record<string, number>; unanchored: number}
  problems: Array<{path: string; problem: string}>
}

const countBy = (values: string[]) => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value || 'none'] = (counts[value || 'none'] ?? 0) + 1
  return counts
}

/**
 * Reads cluster.yaml, every task (active and archived) and every initiative
 * and derives the roadmap. No clock is read: the same files give the same state.
 * `options.records`: the task records when the caller holds them (the daemon's index); default: a scan.
 */
export async function computeRoadmap(root: string, options: {records?: TaskRecord[]} = {}): Promise<RoadmapState> {
  const cluster = await readClusterInfo(root)
  const records = options.records ?? (await scanTasks(root))
  const prefixes = resolvePrefixes(cluster.modules, knownPrefixes(records))
  // A file whose frontmatter cannot be read is left out (and listed in `problems`): its fields would all be empty.
  const readable = records.filter((record) => record.problem === undefined)
  const summaries = readable.map(summarize).sort((a, b) => compareText(a.module, b.module) || compareIds(a.id, b.id) || compareText(a.path, b.path))
  const statusOf = new Map(summaries.map((task) => [task.id, task.status]))
  const allInitiatives = await listInitiatives(root, readable)
  const initiatives = allInitiatives.filter((initiative) => initiative.problem === undefined)
  const versionText = (await readContainedText(meshPath(root), 'STANDARD_VERSION').catch(() => null)) ?? ''
  const standardVersion = /^\s*\d+\s*$/.test(versionText) ? Number(versionText) : null

  const tasks = summaries.map((task) => ({
    ...task,
    // Dependencies not yet done: what stands between this task and its start.
    waiting_on: task.depends_on.filter((id) => statusOf.get(id) !== 'done'),
  }))
  return {
    format: ROADMAP_FORMAT,
    standard_version: standardVersion,
    cluster: {id: cluster.id ?? null, name: cluster.name ?? null, type: cluster.type ?? null},
    modules: cluster.modules.map((module) => ({
      id: module.id,
      kind: module.kind ?? null,
      name: module.name ?? null,
      parent: module.parent ?? null,
      task_prefix: prefixes.get(module.id)!,
      counts: countBy(summaries.filter((task) => task.module === module.id && !task.archived).map((task) => task.status)),
    })),
    initiatives: initiatives.map((initiative) => ({
      ...initiative,
      progress: {done: initiative.done, total: initiative.tasks.length},
    })),
    tasks,
    totals: {
      tasks: summaries.length,
      initiatives: initiatives.length,
      by_status: countBy(summaries.filter((task) => !task.archived).map((task) => task.status)),
      unanchored: summaries.filter((task) => !task.archived && task.initiative === null).length,
    },
    problems: [
      ...records.filter((record) => record.problem).map((record) => ({path: record.relativePath, problem: record.problem!})),
      ...allInitiatives.filter((initiative) => initiative.problem).map((initiative) => ({path: initiative.path, problem: initiative.problem!})),
    ].sort((a, b) => compareText(a.path, b.path)),
  }
}

/** The bytes of state.json and state.js for a state. */
export function renderRoadmap(state: RoadmapState): {json: string; js: string} {
  const json = stableStringify(state)
  return {json: `${json}\n`, js: `${ROADMAP_GLOBAL} = ${json};\n`}
}

export interface RoadmapBuildResult {
  files: Array<{path: string; changed: boolean}>
  tasks: number
  initiatives: number
  problems: Array<{path: string; problem: string}>
}

/** Writes one generated file: `relativePath` is relative to `.mesh/`. */
export type RoadmapFileWriter = (relativePath: string, content: string) => Promise<void>

/**
 * Writes `state.json` and `state.js` of a computed state; a file whose bytes
 * are unchanged is not rewritten. `write` is how the bytes land: atomically
 * by default (`mesh roadmap build`); the daemon passes its project writer, so
 * the two write the very same bytes from the very same code.
 */
export async function writeRoadmapFiles(root: string, state: RoadmapState, write?: RoadmapFileWriter): Promise<RoadmapBuildResult['files']> {
  const {json, js} = renderRoadmap(state)
  const land: RoadmapFileWriter = write ?? ((relative, content) => writeFileAtomic(join(root, MESH_DIR, relative), content))
  const files: RoadmapBuildResult['files'] = []
  for (const [relative, content] of [[ROADMAP_STATE_JSON, json], [ROADMAP_STATE_JS, js]] as const) {
    const before = (await readContainedText(join(root, MESH_DIR), relative).catch(() => null)) ?? undefined
    const changed = before !== content
    if (changed) await land(relative, content)
    files.push({path: `${MESH_DIR}/${relative}`, changed})
  }
  return files
}

/** Builds and writes `.mesh/roadmap/state.json` and `state.js`; a file whose bytes are unchanged is not rewritten. */
export async function buildRoadmap(root: string, options: {write?: RoadmapFileWriter} = {}): Promise<RoadmapBuildResult> {
  const state = await computeRoadmap(root)
  const files = await writeRoadmapFiles(root, state, options.write)
  return {files, tasks: state.totals.tasks, initiatives: state.totals.initiatives, problems: state.problems}
}
