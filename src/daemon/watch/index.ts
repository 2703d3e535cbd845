/**
 * The file-watcher area: no routes, one background job — watching `.mesh/`
 * and publishing what changed on the daemon's event bus (docs/daemon.md, File
 * watcher; docs/daemon-api.md, Events from files).
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {createMeshWatcher, type MeshWatcherOptions} from './watcher.js'

export {isIgnoredPath} from './ignore.js'
export {classifyPath, type WatchedFile} from './classify.js'

export function watchArea(context: DaemonContext, options: MeshWatcherOptions = {}): DaemonArea {
  const watcher = createMeshWatcher(context, options)
  return {
    name: 'watch',
    routes: [],
    start: () => watcher.start(),
    close: () => watcher.close(),
    warnings: () => {
      const problem = watcher.problem()
      return problem ? [problem] : []
    },
  }
}
