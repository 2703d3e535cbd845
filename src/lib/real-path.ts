/**
 * A project's real path, the one its daemon records in daemon.json and its
 * lock (issue 20: a copied project folder carries the original's files,
 * which must not be taken for its own).
 */
import {realpath} from 'node:fs/promises'
import {resolve} from 'node:path'

/** The real path of `root` (links resolved), or its absolute path when it cannot be resolved. */
export const projectRealPath = (root: string): Promise<string> => realpath(root).catch(() => resolve(root))
