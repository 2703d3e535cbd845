/**
 * A turn's private folder (issue 18: no project text in the process list):
 * the files a client CLI reads instead of arguments — the system prompt, the
 * prompt of a CLI without stdin, the copy of a script — live in a folder made
 * with mode 0700 by mkdtemp under `.mesh/.runtime/chat/`, each created with
 * mode 0600 from the start (O_EXCL, never chmod after), and the folder goes
 * when the turn ends, whatever happened. A daemon killed mid-turn leaves one
 * behind; the next start removes it.
 */
import {constants} from 'node:fs'
import {mkdir, mkdtemp, open, readdir, rm} from 'node:fs/promises'
import {join} from 'node:path'

/** The folders' name prefix under the chat runtime folder. */
export const PRIVATE_PREFIX = 'private-'

export interface PrivateFolder {
  path: string
  /** Creates `name` in the folder (0600, exclusive, never through a link) holding `content`; returns its path. */
  write(name: string, content: string | Uint8Array): Promise<string>
  /** Removes the folder and its files. Idempotent; never throws. */
  remove(): Promise<void>
}

export async function createPrivateFolder(parent: string): Promise<PrivateFolder> {
  await mkdir(parent, {recursive: true, mode: 0o700})
  // mkdtemp creates the folder with mode 0700 under a fresh random name.
  const path = await mkdtemp(join(parent, PRIVATE_PREFIX))
  let removed: Promise<void> | undefined
  return {
    path,
    async write(name, content) {
      const file = join(path, name)
      const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
      try {
        await handle.writeFile(content)
      } finally {
        await handle.close()
      }
      return file
    },
    remove() {
      removed ??= rm(path, {recursive: true, force: true}).catch(() => {})
      return removed
    },
  }
}

/** Removes the private folders a killed daemon left in `parent` (one daemon per project: none is in use at start). */
export async function sweepPrivateFolders(parent: string): Promise<number> {
  const entries = await readdir(parent, {withFileTypes: true}).catch(() => [])
  const stale = entries.filter((entry) => entry.isDirectory() && entry.name.startsWith(PRIVATE_PREFIX))
  for (const entry of stale) await rm(join(parent, entry.name), {recursive: true, force: true}).catch(() => {})
  return stale.length
}
