/**
 * A member's slice of the project context tree (spec v14, v36, v38): the
 * nodes its card's `context` pins, each with its subtree (`decisions` is the
 * folder `context/decisions/` and every file under it); a declared `context`
 * replaces the default pinned set, the required files of the tree.
 */
import {readdir, readFile} from 'node:fs/promises'
import {join, relative} from 'node:path'
import {CONTEXT_STEMS} from '../../standard/scaffold/constants.js'
import {splitFrontmatter} from '../../standard/frontmatter.js'

export const DEFAULT_PINNED: readonly string[] = CONTEXT_STEMS

export interface ContextFile {
  /** The node id: the path under `context/` without `.md`, e.g. `decisions/2026-01-05-db`. */
  id: string
  body: string
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true}).catch(() => [])
  const nested = await Promise.all(entries.sort((a, b) => (a.name < b.name ? -1 : 1)).map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : Promise.resolve(entry.isFile() && entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))))
  return nested.flat()
}

/** The files of the slice in the order the ids are given; an id naming nothing is reported in `missing`. */
export async function readContextSlice(contextDir: string, ids: readonly string[]): Promise<{files: ContextFile[]; missing: string[]}> {
  const all = await filesUnder(contextDir)
  const files: ContextFile[] = []
  const missing: string[] = []
  const seen = new Set<string>()
  for (const id of ids) {
    // Ids never climb out of the tree.
    if (id.split('/').some((part) => part === '..' || part === '')) {
      missing.push(id)
      continue
    }
    const matches = all.filter((path) => {
      const node = relative(contextDir, path).replace(/\\/g, '/').replace(/\.md$/, '')
      return node === id || node.startsWith(`${id}/`)
    })
    if (matches.length === 0) missing.push(id)
    for (const path of matches) {
      if (seen.has(path)) continue
      seen.add(path)
      const text = await readFile(path, 'utf8').catch(() => '')
      files.push({id: relative(contextDir, path).replace(/\\/g, '/').replace(/\.md$/, ''), body: splitFrontmatter(text).body.trim()})
    }
  }
  return {files, missing}
}
