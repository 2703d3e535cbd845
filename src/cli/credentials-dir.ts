/** The --credentials folder, checked before use so a wrong path gets a usage error instead of an ENOTDIR deep inside. */
import {stat} from 'node:fs/promises'
import {MeshError} from '../lib/errors.js'

/** Throws `usage_credentials_dir` when `dir` exists but is not a folder; a missing folder is fine (created on first write). */
export async function assertCredentialsDir(dir: string): Promise<string> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    // ENOTDIR: a parent is a file.
    if (error.code === 'ENOTDIR') return 'not a folder' as const
    throw new MeshError('invalid', 'usage_credentials_dir', `Cannot use the credentials folder ${dir}: ${error.code ?? error.message}`)
  })
  if (info === 'not a folder' || (info && !info.isDirectory())) {
    throw new MeshError('invalid', 'usage_credentials_dir', `The credentials folder ${dir} is a file (or lies under one); pass --credentials <folder> or set MESH_CREDENTIALS_DIR`)
  }
  return dir
}
