/**
 * The size of the project context tree (spec v14): words of every markdown
 * file under `.mesh/context/`, frontmatter excluded, and the token estimate
 * the daemon reports (3,000 words ≈ 4,500 tokens, so 1.5 tokens a word).
 */
import {readdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {CONTEXT_TOTAL_MAX_WORDS} from '../standard/constants.js'
import {splitFrontmatter} from '../standard/frontmatter.js'
import {countWords} from '../standard/validate/checks/context-tree.js'

export const TOKENS_PER_WORD = 1.5

export interface ContextTreeSize {
  words: number
  token_estimate: number
  budget_words: number
  over_budget: boolean
  files: number
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true}).catch(() => [])
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return markdownFiles(path)
      return Promise.resolve(entry.isFile() && entry.name.endsWith('.md') ? [path] : [])
    }),
  )
  return nested.flat()
}

export async function measureContextTree(contextDir: string): Promise<ContextTreeSize> {
  const files = await markdownFiles(contextDir)
  let words = 0
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '')
    words += countWords(splitFrontmatter(text).body)
  }
  return {
    words,
    token_estimate: Math.round(words * TOKENS_PER_WORD),
    budget_words: CONTEXT_TOTAL_MAX_WORDS,
    over_budget: words > CONTEXT_TOTAL_MAX_WORDS,
    files: files.length,
  }
}
