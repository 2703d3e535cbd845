/**
 * Reads a file of the project that decides what this machine runs (the
 * clients file, a script of the script client) without ever following a
 * symbolic link, at any step below the project root (issue 18: a repository
 * cannot point the daemon at a file outside it). Every folder on the way is
 * checked with lstat, the file is opened with O_NOFOLLOW, and on Linux the
 * opened file's own path is compared with the expected one, so a folder
 * swapped for a link between the check and the open is caught too.
 */
import {constants} from 'node:fs'
import {lstat, open, readlink, realpath} from 'node:fs/promises'
import {isAbsolute, join, normalize, relative, sep} from 'node:path'

export type ProjectFileRefusal = 'outside' | 'symlink' | 'missing' | 'not_file' | 'too_large'

export class ProjectFileError extends Error {
  constructor(
    readonly reason: ProjectFileRefusal,
    message: string,
  ) {
    super(message)
    this.name = 'ProjectFileError'
  }
}

/** `relative` (a path inside `root`, `/`-separated or native) as its parts, or null when it leaves `root`. */
export function insideParts(root: string, path: string): string[] | null {
  const rel = isAbsolute(path) ? relative(root, path) : normalize(path)
  if (rel === '' || rel === '.' || rel.startsWith('..') || isAbsolute(rel)) return null
  return rel.split(sep).filter((part) => part !== '' && part !== '.')
}

/**
 * The bytes of `path` (absolute, or relative to `root`), refusing with a
 * ProjectFileError a path that leaves `root`, passes through or ends in a
 * link, is missing, is not a regular file, or is larger than `maxBytes`.
 */
export async function readProjectFileNoFollow(root: string, path: string, maxBytes: number): Promise<Buffer> {
  const parts = insideParts(root, path)
  const shown = parts ? parts.join('/') : path
  if (!parts || parts.length === 0) throw new ProjectFileError('outside', `${shown} is outside the project`)
  let folder = root
  for (const part of parts.slice(0, -1)) {
    folder = join(folder, part)
    const info = await lstat(folder).catch(() => null)
    if (!info) throw new ProjectFileError('missing', `${shown} does not exist`)
    if (info.isSymbolicLink()) throw new ProjectFileError('symlink', `${shown} passes through a symbolic link (${relative(root, folder)}); mesh does not follow links there`)
    if (!info.isDirectory()) throw new ProjectFileError('missing', `${shown} does not exist`)
  }
  const full = join(root, ...parts)
  let handle
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hang the daemon on open.
    handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP' || code === 'EMLINK') throw new ProjectFileError('symlink', `${shown} is a symbolic link; mesh does not follow links there`)
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ProjectFileError('missing', `${shown} does not exist`)
    throw error
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new ProjectFileError('not_file', `${shown} is not a regular file`)
    if (info.size > maxBytes) throw new ProjectFileError('too_large', `${shown} is larger than ${maxBytes} bytes`)
    if (process.platform === 'linux') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null)
      const expected = join(await realpath(root), ...parts)
      if (opened !== null && opened !== expected) throw new ProjectFileError('symlink', `${shown} changed into a link while it was read; mesh does not follow links there`)
    }
    const bytes = await handle.readFile()
    if (bytes.length > maxBytes) throw new ProjectFileError('too_large', `${shown} is larger than ${maxBytes} bytes`)
    return bytes
  } finally {
    await handle.close()
  }
}
