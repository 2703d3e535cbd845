import {randomBytes} from 'node:crypto'
import {mkdir, open, rename, rm} from 'node:fs/promises'
import {dirname, basename, join} from 'node:path'

export interface AtomicWriteOptions {
  /** File mode, e.g. 0o600 for secrets. */
  mode?: number
  /** fsync before the rename (default). Off only for files nobody needs after a crash (a lock: a stale one is taken over). */
  sync?: boolean
}

/**
 * Writes a file so that readers see either the old or the new content, never a
 * truncated one: write a temp file in the same folder, fsync, then rename.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, {recursive: true})
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', options.mode ?? 0o644)
  try {
    await handle.writeFile(data)
    if (options.sync !== false) await handle.sync()
  } catch (error) {
    await handle.close()
    await rm(temp, {force: true})
    throw error
  }
  await handle.close()
  try {
    await rename(temp, path)
  } catch (error) {
    await rm(temp, {force: true})
    throw error
  }
}
