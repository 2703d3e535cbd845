/**
 * The nearest folder at or above `start` that holds a folder `name` — how git
 * finds `.git`, and how every mesh command finds the project's `.mesh/` from
 * any subfolder (issue 23). Shared below the services, so the agent kit (which
 * may not load the standard) finds the project the same way.
 */
import {stat} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'

const isFolder = (path: string) => stat(path).then((info) => info.isDirectory(), () => false)

/** The folder holding `name` (at `start` or above), or null when none does. */
export async function findUpFolder(start: string, name: string): Promise<string | null> {
  let dir = resolve(start)
  for (;;) {
    if (await isFolder(join(dir, name))) return dir
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}
