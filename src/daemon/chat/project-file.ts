/**
 * Reads a file of the project that decides what this machine runs (the
 * clients file, a script of the script client) without ever following a
 * symbolic link below the project root (issue 18: a repository cannot point
 * the daemon at a file outside it). The checks are the shared ones of
 * `src/lib/contained-files.ts`; this adds the size bound and names each
 * refusal, so the clients and script code can say which one it was.
 */
import {isAbsolute, normalize, relative, sep} from 'node:path'
import {isPathRefused, readContainedFile} from '../../lib/contained-files.js'

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
  let bytes: Buffer | null
  try {
    // One byte over the bound tells a file that is too large from one that fits exactly.
    bytes = await readContainedFile(root, parts.join('/'), {maxBytes: maxBytes + 1})
  } catch (error) {
    if (!isPathRefused(error)) throw error
    throw new ProjectFileError(error.details?.reason === 'not a regular file' ? 'not_file' : 'symlink', error.message)
  }
  if (bytes === null) throw new ProjectFileError('missing', `${shown} does not exist`)
  if (bytes.length > maxBytes) throw new ProjectFileError('too_large', `${shown} is larger than ${maxBytes} bytes`)
  return bytes
}
