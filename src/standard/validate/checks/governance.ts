import {DOC_MAX_LINES, DUPLICATE_BLOCK_LINES, MESH_DIR, STANDARD_PATHS} from '../../constants.js'
import type {ProjectFile} from '../../project/index.js'
import {countNewlines} from '../../project/index.js'
import {filesOf, recordOf, type RuleContext} from '../rule-context.js'

const DOCS_DIR = `${MESH_DIR}/${STANDARD_PATHS.docs}/`
/** At most this many R6 findings per INDEX.md: past that, the file needs rewriting, not a list. */
const MAX_INDEX_FINDINGS = 10

/**
 * Governance R1–R6 over `.mesh/docs/` (R4, frontmatter, is checked with the
 * schema). Severities per DECISIONS: R2 and R4 errors; R1, R3, R5, R6 warnings.
 */
export function checkGovernance(context: RuleContext): void {
  const docs = filesOf(context, 'doc')
  const allDocs = filesOf(context, 'doc', 'doc-index', 'doc-exempt')
  for (const file of allDocs) checkLength(file, context)
  checkCategoryFolders(docs, context)
  checkTitles(docs, context)
  checkCopiedBlocks(filesOf(context, 'doc', 'doc-exempt'), context)
  for (const file of filesOf(context, 'doc-index')) checkIndexMap(file, context)
}

/** R2: at most 200 lines per file. */
function checkLength(file: ProjectFile, {findings}: RuleContext): void {
  if (file.text === undefined) return
  const lines = countNewlines(file.text) + (file.text.length > 0 && !file.text.endsWith('\n') ? 1 : 0)
  if (lines > DOC_MAX_LINES) findings.add(file, 'r2-length', `${lines} lines; a doc holds at most ${DOC_MAX_LINES} (split it by topic)`, {line: DOC_MAX_LINES + 1, column: 1})
}

/** R1: docs/<category>/<file>.md with the folder equal to the frontmatter category. */
function checkCategoryFolders(docs: ProjectFile[], {findings}: RuleContext): void {
  for (const file of docs) {
    const category = recordOf(file)?.category
    if (typeof category !== 'string') continue
    const inner = file.path.slice(DOCS_DIR.length)
    const slash = inner.indexOf('/')
    if (slash === -1) findings.add(file, 'r1-category', `a doc lives in docs/<category>/: move it to docs/${category}/`, {pointer: '/category'})
    else if (inner.slice(0, slash) !== category) findings.add(file, 'r1-category', `category "${category}" differs from its folder docs/${inner.slice(0, slash)}/`, {pointer: '/category'})
  }
}

/** R3: one topic, one canonical file — two docs with the same title. */
function checkTitles(docs: ProjectFile[], {findings}: RuleContext): void {
  const seen = new Map<string, string>()
  for (const file of docs) {
    const title = recordOf(file)?.title
    if (typeof title !== 'string' || title.trim() === '') continue
    const key = title.trim().toLowerCase()
    const first = seen.get(key)
    if (first) findings.add(file, 'r3-duplicate-title', `title "${title}" is also the title of ${first}: keep one canonical doc`, {pointer: '/title'})
    else seen.set(key, file.path)
  }
}

/** R5: the same block of 6+ meaningful lines in two docs (blank and punctuation-only lines do not count). */
function checkCopiedBlocks(docs: ProjectFile[], {findings}: RuleContext): void {
  const firstSeen = new Map<string, {path: string; line: number}>()
  for (const file of docs) {
    if (file.body === undefined) continue
    const lines: Array<{text: string; line: number}> = []
    const raw = file.body.split('\n')
    const start = file.bodyStartLine ?? 1
    for (let index = 0; index < raw.length; index++) {
      const text = raw[index].trim()
      if (/[\p{L}\p{N}]/u.test(text)) lines.push({text, line: start + index})
    }
    const reportedAgainst = new Set<string>()
    const mine = new Set<string>()
    for (let index = 0; index + DUPLICATE_BLOCK_LINES <= lines.length; index++) {
      let key = lines[index].text
      for (let offset = 1; offset < DUPLICATE_BLOCK_LINES; offset++) key += '\n' + lines[index + offset].text
      const earlier = firstSeen.get(key)
      if (earlier && earlier.path !== file.path && !reportedAgainst.has(earlier.path)) {
        reportedAgainst.add(earlier.path)
        findings.add(file, 'r5-copied-block', `lines ${lines[index].line}–${lines[index + DUPLICATE_BLOCK_LINES - 1].line} repeat ${earlier.path} from line ${earlier.line}: link to it instead of copying`, {line: lines[index].line, column: 1})
      }
      if (!earlier && !mine.has(key)) firstSeen.set(key, {path: file.path, line: lines[index].line})
      mine.add(key)
    }
  }
}

type IndexLine = 'blank' | 'map' | 'prose' | 'content'

function classifyIndexLine(text: string): IndexLine {
  const line = text.trim()
  if (line === '' || line.startsWith('<!--')) return 'blank'
  if (line.startsWith('#') || /\[[^\]]*\]\([^)]*\)|<https?:\/\/[^>]+>|^\[[^\]]+\]:\s/.test(line)) return 'map'
  if (line.startsWith('|') || line.startsWith('```') || line.startsWith('~~~') || line.startsWith('>')) return 'content'
  return 'prose'
}

/** R6: INDEX.md holds headings, links and one-line descriptions — no paragraphs, tables or code. */
function checkIndexMap(file: ProjectFile, {findings}: RuleContext): void {
  if (file.body === undefined) return
  const lines = file.body.split('\n')
  // Lines inside a ``` or ~~~ fence are code, whatever they look like.
  let fence: string | undefined
  const kinds = lines.map((text): IndexLine => {
    const marker = /^\s*(```|~~~)/.exec(text)?.[1]
    if (fence) {
      if (marker === fence) fence = undefined
      return 'content'
    }
    if (marker) fence = marker
    return classifyIndexLine(text)
  })
  const start = file.bodyStartLine ?? 1
  let reported = 0
  for (let index = 0; index < lines.length && reported < MAX_INDEX_FINDINGS; index++) {
    const kind = kinds[index]
    if (kind === 'content') {
      findings.add(file, 'r6-index-map', 'INDEX.md is a map: tables, code and quotes belong in a doc it links to', {line: start + index, column: 1})
      reported++
      while (index + 1 < lines.length && kinds[index + 1] === 'content') index++
    } else if (kind === 'prose' && kinds[index + 1] === 'prose') {
      let end = index + 1
      while (end + 1 < lines.length && kinds[end + 1] === 'prose') end++
      findings.add(file, 'r6-index-map', `INDEX.md is a map: a ${end - index + 1}-line paragraph here; keep one-line descriptions and move the rest into a doc`, {line: start + index, column: 1})
      reported++
      index = end
    }
  }
}
