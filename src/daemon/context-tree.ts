/**
 * The size of the project context tree (spec v14): words of every markdown
 * file under `.mesh/context/`, frontmatter excluded, and the token estimate
 * the daemon reports (3,000 words ≈ 4,500 tokens, so 1.5 tokens a word).
 * The tree is walked without following a link (issue 18): a linked file or
 * folder is left out and said in the debug stream, never read.
 */
import {CONTEXT_TOTAL_MAX_WORDS} from '../standard/constants.js'
import {splitFrontmatter} from '../standard/frontmatter.js'
import {countWords} from '../standard/validate/checks/context-tree.js'
import {entryRefusal, listProjectFolder, readProjectText, reportRefusedPath, type ProjectReader} from './project-files.js'

export const TOKENS_PER_WORD = 1.5
/** The tree's folder, relative to `.mesh/`. */
export const CONTEXT_DIR = 'context'

/** The daemon's context, or the files read by a command with no daemon (mesh mcp's context_read). */
type Reader = ProjectReader

export interface ContextTreeSize {
  words: number
  token_estimate: number
  budget_words: number
  over_budget: boolean
  files: number
}

/**
 * The markdown files under `.mesh/<dir>/` (relative to `.mesh/`), by name at
 * each level; links (files or folders) are left out and reported, and a
 * linked or unreadable tree is empty.
 */
export async function markdownFilesUnder(context: Reader, dir: string = CONTEXT_DIR): Promise<string[]> {
  const entries = await listProjectFolder(context, dir).catch(() => [])
  const nested = await Promise.all(
    entries
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((entry) => {
        const path = `${dir}/${entry.name}`
        if (entry.isDirectory()) return markdownFilesUnder(context, path)
        if (!entry.name.endsWith('.md')) return Promise.resolve([])
        const refusal = entryRefusal(entry)
        if (refusal !== null) reportRefusedPath(context, `.mesh/${path}`, refusal)
        return Promise.resolve(refusal === null ? [path] : [])
      }),
  )
  return nested.flat()
}

/** A file's text for the tree: '' when it is gone or refused. */
export const contextFileText = async (context: Reader, path: string): Promise<string> => (await readProjectText(context, path).catch(() => null)) ?? ''

export async function measureContextTree(context: Reader): Promise<ContextTreeSize> {
  const files = await markdownFilesUnder(context)
  let words = 0
  for (const file of files) words += countWords(splitFrontmatter(await contextFileText(context, file)).body)
  return {
    words,
    token_estimate: Math.round(words * TOKENS_PER_WORD),
    budget_words: CONTEXT_TOTAL_MAX_WORDS,
    over_budget: words > CONTEXT_TOTAL_MAX_WORDS,
    files: files.length,
  }
}
