import {link, rm} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'
import {randomBytes} from 'node:crypto'
import {writeFileAtomic, type AtomicWriteOptions} from './atomic-write.js'

/**
 * Writes a new file only if nothing exists at `path`, atomically: the content
 * goes to a temp file first (through writeFileAtomic), then a hard link puts
 * it in place, which fails with EEXIST instead of replacing anything. Readers
 * never see a half-written file and a file someone else made is never replaced.
 * Returns false when `path` already existed.
 */
export async function createFileExclusive(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<boolean> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.new`)
  await writeFileAtomic(temp, data, options)
  try {
    await link(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    await rm(temp, {force: true})
  }
}
