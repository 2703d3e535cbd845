/**
 * `GET /snapshots?path=…` (the snapshots of one file), `GET /snapshots/files`
 * (the files that have some) and
 * `POST /snapshots/restore` (bring one back), all behind the portal token:
 * snapshots may hold any file the daemon rewrote. docs/daemon-api.md, Snapshots.
 */
import {invalid} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {listSnapshotFiles, listSnapshots} from './catalog.js'
import {toMeshRelative} from './paths.js'
import {restoreSnapshot} from './restore.js'
import {snapshotTime} from './time.js'

export const SNAPSHOT_RESTORED_EVENT = 'snapshot.restored'

export function snapshotRoutes(context: DaemonContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/snapshots',
      auth: 'portal',
      async handle({query}) {
        if (query.path === undefined) throw invalid('invalid_query', 'path is required: the file whose snapshots to list', {field: 'path'})
        const path = toMeshRelative(context.root, query.path)
        return {path, snapshots: await listSnapshots(context.meshPath(), path), generated_at: new Date(context.clock()).toISOString()}
      },
    },
    {
      // The files a restore can bring back (the IDE's Project view lists them).
      method: 'GET',
      path: '/snapshots/files',
      auth: 'portal',
      handle: async () => ({files: await listSnapshotFiles(context.meshPath()), generated_at: new Date(context.clock()).toISOString()}),
    },
    {
      method: 'POST',
      path: '/snapshots/restore',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{path: string; at?: string; before?: string}>('daemon-snapshot-restore', await request.body())
        if (body.at !== undefined && body.before !== undefined) throw invalid('invalid_body', 'give at (the file as it was then) or before (the bytes a rewrite at or before then replaced), not both', {field: 'before'})
        const path = toMeshRelative(context.root, body.path)
        const at = body.at === undefined ? undefined : snapshotTime(body.at, 'invalid_time')
        const before = body.before === undefined ? undefined : snapshotTime(body.before, 'invalid_time', 'before')
        const result = await restoreSnapshot({meshDir: context.meshPath(), writer: context.writer, path, at, before})
        context.debug.log({lvl: 'info', tag: 'snapshots.restore', msg: `restored ${result.path} from the snapshot of ${result.restored.ts}`, data: {path: result.path, snapshot: result.restored.snapshot, undo: result.undo?.snapshot ?? null}})
        context.events.publish(SNAPSHOT_RESTORED_EVENT, {path: result.path, snapshot: result.restored.snapshot, snapshot_ts: result.restored.ts, undo: result.undo?.snapshot ?? null})
        return result
      },
    },
  ]
}
