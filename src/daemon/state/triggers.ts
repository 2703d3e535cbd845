/**
 * Which changes make the generated state stale (docs/daemon.md, Generated
 * state): the files `mesh roadmap build` reads (cluster.yaml, STANDARD_VERSION,
 * every task — active or archived — and every initiative) and the context
 * tree whose token estimate `.mesh/state.json` reports. The generated files
 * themselves never are, or a rebuild would cause the next.
 */
import type {DaemonEvent} from '../../protocol/events.js'
import {GENERATED_FILES} from './constants.js'

const MESH_PREFIX = '.mesh/'

/** Whether a change to this `.mesh/`-relative, `/`-separated path can change the generated state. */
export function affectsState(relativePath: string): boolean {
  if (GENERATED_FILES.includes(relativePath)) return false
  if (relativePath === 'public/cluster.yaml' || relativePath === 'STANDARD_VERSION') return true
  const parts = relativePath.split('/')
  // modules/<id>/tasks/<file> and the archives modules/<id>/log/<YYYY-MM>/<file>.
  if (parts[0] === 'modules') return parts.length >= 4 && (parts[2] === 'tasks' || parts[2] === 'log')
  if (parts[0] === 'roadmap') return parts[1] === 'initiatives' && parts.length >= 3
  return parts[0] === 'context' && parts.length >= 2
}

/** The `.mesh/`-relative path an event of the watcher or an area reports a change of, when it is one that counts. */
export function causeOfEvent(event: DaemonEvent): string | null {
  if (event.type === 'cluster.updated') return 'public/cluster.yaml'
  if (!['task.created', 'task.updated', 'task.deleted', 'file.changed', 'snapshot.restored'].includes(event.type)) return null
  const data = event.data as {path?: unknown} | null
  const path = typeof data?.path === 'string' ? data.path : null
  if (path === null) return null
  const relative = path.startsWith(MESH_PREFIX) ? path.slice(MESH_PREFIX.length) : path
  return affectsState(relative) ? relative : null
}
