/**
 * The servers once kept their data in other default folders: the registry in
 * `./mesh-registry-data`, the relay in `~/.mesh/data`. A server started on the
 * new default (`./mesh-data`) would begin empty beside the old data; this
 * finds that case so the command can say how to move (docs/registry.md,
 * "Moving from an old default data folder").
 */
import {existsSync} from 'node:fs'
import {homedir} from 'node:os'
import {join, resolve} from 'node:path'

/** The earlier defaults, newest first: `mesh serve registry`'s, then `mesh serve relay`'s. */
export function oldDefaultDataDirs(): string[] {
  return [resolve('mesh-registry-data'), join(homedir(), '.mesh', 'data')]
}

/**
 * The old default folder holding a database, when `--data` was left at its
 * default (neither flag nor env) and the new default folder does not exist
 * yet; otherwise null.
 */
export function oldDataDir(dataDir: string, fromDefault: boolean, oldDirs = oldDefaultDataDirs()): string | null {
  if (!fromDefault || existsSync(dataDir)) return null
  return oldDirs.find((dir) => dir !== dataDir && existsSync(join(dir, 'mesh.db'))) ?? null
}

/** The hint printed at start: what was found, and the two ways on. */
export function oldDataHint(oldDir: string, dataDir: string): string {
  return (
    `${dataDir} does not exist yet, but ${oldDir} holds data of an earlier default data folder; this server starts empty. ` +
    `To keep that data, stop the server and move the mesh.db* and registry-* files of ${oldDir} into ${dataDir}, or start with --data ${oldDir}`
  )
}

/** The registry's old env name for its data folder; a deployment that still sets it gets this warning, not a silent new folder. */
export function legacyEnvHint(env: NodeJS.ProcessEnv, dataDir: string, fromDefault: boolean): string | null {
  const legacy = env.MESH_DATA_DIR
  if (!fromDefault || !legacy) return null
  return `MESH_DATA_DIR is no longer read; set MESH_DATA=${legacy} (or --data ${legacy}) to keep using that folder. This server uses ${dataDir}`
}
