/**
 * `context_read`: the project context tree (spec v14, `.mesh/context/`),
 * read from the files whether or not the daemon runs (it serves no route for
 * the tree; reading is not writing). The same walk as the daemon's
 * (src/daemon/context-tree.ts): links are never followed, nothing outside
 * `context/` is read.
 */
import {invalid, notFound} from '../../lib/errors.js'
import type {McpProject} from './caller.js'

export async function readContext(project: McpProject, path: string | undefined): Promise<unknown> {
  const [{markdownFilesUnder, contextFileText, measureContextTree}, {splitFrontmatter}, {countWords}] = await Promise.all([
    import('../../daemon/context-tree.js'),
    import('../../standard/frontmatter.js'),
    import('../../standard/validate/checks/context-tree.js'),
  ])
  const files = await markdownFilesUnder(project.reader)
  if (path === undefined) {
    const {words, token_estimate, budget_words} = await measureContextTree(project.reader)
    const sized = await Promise.all(files.map(async (file) => ({path: file, words: countWords(splitFrontmatter(await contextFileText(project.reader, file)).body)})))
    return {words, token_estimate, budget_words, files: sized}
  }
  const wanted = path.replace(/^\.mesh\//, '')
  if (!wanted.startsWith('context/')) throw invalid('invalid_path', `path is a file of the context tree, e.g. context/stack.md; got "${path.slice(0, 80)}"`, {field: 'path'})
  // Only a file the walk listed: no `..`, no link, nothing outside the tree.
  if (!files.includes(wanted)) throw notFound('context_file_not_found', `No file ${wanted} in the context tree; context_read without path lists them`)
  return {path: wanted, text: await contextFileText(project.reader, wanted)}
}
