/**
 * A member's slice of the project context tree (spec v14, v36, v38): the
 * nodes its card's `context` pins, each with its subtree (`decisions` is the
 * folder `context/decisions/` and every file under it); a declared `context`
 * replaces the default pinned set, the required files of the tree. Files are
 * read as the tree is walked (src/daemon/context-tree.ts): a link is never
 * followed, so nothing outside `.mesh/context/` reaches a prompt (issue 18).
 */
import {CONTEXT_STEMS} from '../../standard/scaffold/constants.js'
import {splitFrontmatter} from '../../standard/frontmatter.js'
import type {DaemonContext} from '../context.js'
import {CONTEXT_DIR, contextFileText, markdownFilesUnder} from '../context-tree.js'

export const DEFAULT_PINNED: readonly string[] = CONTEXT_STEMS

export interface ContextFile {
  /** The node id: the path under `context/` without `.md`, e.g. `decisions/2026-01-05-db`. */
  id: string
  body: string
}

/** `context/decisions/x.md` → `decisions/x`. */
const nodeOf = (path: string) => path.slice(CONTEXT_DIR.length + 1).replace(/\.md$/, '')

/** The files of the slice in the order the ids are given; an id naming nothing is reported in `missing`. */
export async function readContextSlice(context: Pick<DaemonContext, 'meshPath' | 'debug'>, ids: readonly string[]): Promise<{files: ContextFile[]; missing: string[]}> {
  const all = await markdownFilesUnder(context)
  const files: ContextFile[] = []
  const missing: string[] = []
  const seen = new Set<string>()
  for (const id of ids) {
    // Ids never climb out of the tree.
    if (id.split('/').some((part) => part === '..' || part === '')) {
      missing.push(id)
      continue
    }
    const matches = all.filter((path) => nodeOf(path) === id || nodeOf(path).startsWith(`${id}/`))
    if (matches.length === 0) missing.push(id)
    for (const path of matches) {
      if (seen.has(path)) continue
      seen.add(path)
      files.push({id: nodeOf(path), body: splitFrontmatter(await contextFileText(context, path)).body.trim()})
    }
  }
  return {files, missing}
}
