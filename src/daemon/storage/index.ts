/**
 * The storage area: the storage report (`GET /storage/usage`), snapshot
 * listing and restore (`/snapshots`, src/daemon/snapshots/), and the
 * background pruning of snapshots and uploads (at start, then hourly).
 * docs/daemon.md, Storage and pruning; docs/daemon-api.md, Storage and Snapshots.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {snapshotRoutes} from '../snapshots/routes.js'
import type {PruneReport} from './prune.js'
import {createPruner, type PrunerOptions} from './pruner.js'
import {storageRoutes} from './routes.js'
import {createUsageReporter} from './usage.js'

export interface StorageArea extends DaemonArea {
  /** Runs a pruning pass now (or joins the one under way). */
  prune(): Promise<PruneReport>
}

export function createStorageArea(context: DaemonContext, options: PrunerOptions = {}): StorageArea {
  const usage = createUsageReporter({meshDir: context.meshPath(), clock: context.clock, settings: () => ({snapshotRetentionDays: context.settings().snapshots.retentionDays})})
  const pruner = createPruner(context, {
    ...options,
    onPruned(report) {
      usage.invalidate()
      options.onPruned?.(report)
    },
  })
  return {
    name: 'storage',
    routes: [...storageRoutes(usage), ...snapshotRoutes(context)],
    start: () => pruner.start(),
    close: () => pruner.stop(),
    prune: () => pruner.run(),
  }
}

/** The entry of DEFAULT_AREAS. */
export const storageArea = (context: DaemonContext): DaemonArea => createStorageArea(context)
