/**
 * Which file a restore means: a path relative to `.mesh/` (`public/links.yaml`),
 * relative to the repository root (`.mesh/public/links.yaml`), or absolute
 * inside `.mesh/`. Anything that lands outside `.mesh/` is 400 `invalid_path`,
 * as for every daemon write. docs/daemon.md, Restore.
 */
import {isAbsolute, relative, resolve, sep} from 'node:path'
import {forbidden, invalid} from '../../lib/errors.js'
import {MESH_DIR} from '../../protocol/daemon.js'
import {SNAPSHOTS_DIR} from '../project-writer.js'

/** Largest path accepted (a path, not a payload). */
export const MAX_PATH_CHARS = 1024

/**
 * Folders whose files are never restored: `credentials/` (a restored token
 * file would bring back a revoked token), the daemon's `.runtime/`, and the
 * snapshots themselves.
 */
export const NOT_RESTORED = ['credentials', '.runtime', SNAPSHOTS_DIR] as const

/** The file as a `/`-separated path relative to `.mesh/` of the project at `root`. */
export function toMeshRelative(root: string, input: string): string {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0') || input.length > MAX_PATH_CHARS) {
    throw invalid('invalid_path', `A file path is relative to .mesh/ (or to the repository root, or absolute inside .mesh/), not empty and at most ${MAX_PATH_CHARS} characters`, {field: 'path'})
  }
  const meshDir = resolve(root, MESH_DIR)
  // Judged on the path as typed, not normalized: `.mesh/../x` means the repository's x (refused), not .mesh/x.
  const fromRoot = input.split('/').filter((part) => part !== '.' && part !== '')[0] === MESH_DIR
  const absolute = isAbsolute(input) ? resolve(input) : resolve(fromRoot ? root : meshDir, input)
  const inside = relative(meshDir, absolute)
  if (inside === '' || inside === '..' || inside.startsWith('..' + sep) || isAbsolute(inside)) {
    throw invalid('invalid_path', `${input.slice(0, 200)} is outside .mesh/`, {field: 'path'})
  }
  return inside.split(sep).join('/')
}

/** Refuses the folders restore never writes (403 `restore_not_allowed`). */
export function assertRestorable(path: string): void {
  const top = path.split('/')[0]
  if ((NOT_RESTORED as readonly string[]).includes(top)) {
    throw forbidden('restore_not_allowed', `Files under .mesh/${top}/ are not restored (${top === 'credentials' ? 'an old token file would bring back revoked tokens' : 'they belong to the daemon'})`, {field: 'path'})
  }
}
