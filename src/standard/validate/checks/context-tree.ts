import {
  CONTEXT_ENTRY_MAX_WORDS,
  CONTEXT_ERROR_WORDS,
  CONTEXT_OPTIONAL_FILES,
  CONTEXT_REQUIRED_FILES,
  CONTEXT_TOTAL_MAX_WORDS,
  CONTEXT_WARN_WORDS,
  DECISION_FILE,
  MESH_DIR,
  STANDARD_PATHS,
} from '../../constants.js'
import type {ProjectFile} from '../../project/index.js'
import {filesOf, type RuleContext} from '../rule-context.js'

const WORD = /\S*[\p{L}\p{N}]\S*/gu

/** Words of a markdown body: whitespace-separated tokens holding a letter or digit (frontmatter excluded). */
export function countWords(text: string | undefined): number {
  if (!text) return 0
  let count = 0
  WORD.lastIndex = 0
  while (WORD.exec(text)) count++
  return count
}

const CONTEXT_DIR = `${MESH_DIR}/${STANDARD_PATHS.context}/`
const REQUIRED: ReadonlySet<string> = new Set(CONTEXT_REQUIRED_FILES)
const OPTIONAL: ReadonlySet<string> = new Set(CONTEXT_OPTIONAL_FILES)

/**
 * spec v14 + DECISIONS Context budget: required files present; required and
 * glossary files over 200 words warn, over 250 error; each decision and
 * criterion at most 100; all together at most 3,000.
 */
export function checkContextTree(context: RuleContext): void {
  const {findings} = context
  if (!context.project.hasMeshDir) return
  const files = filesOf(context, 'context', 'decision', 'criterion')
  const present = new Set(files.filter((file) => file.kind === 'context').map((file) => file.path.slice(CONTEXT_DIR.length)))
  for (const name of CONTEXT_REQUIRED_FILES) {
    if (!present.has(name)) findings.add(`${CONTEXT_DIR}${name}`, 'context-required', `context/${name} is missing (v14 requires overview, product, stack, architecture, constraints)`)
  }
  let total = 0
  for (const file of files) {
    const words = countWords(file.hasFrontmatter ? file.body : file.text)
    total += words
    checkBudget(file, words, context)
    if (file.kind === 'decision' && !DECISION_FILE.test(file.path.slice(file.path.lastIndexOf('/') + 1))) {
      findings.add(file, 'decision-filename', 'a decision entry is named YYYY-MM-DD-<slug>.md', {line: 1, column: 1})
    }
  }
  if (total > CONTEXT_TOTAL_MAX_WORDS) {
    findings.add(CONTEXT_DIR, 'context-total', `the context tree has ${total} words; the budget is ${CONTEXT_TOTAL_MAX_WORDS} (the daemon refuses architect dispatch over it)`)
  }
}

function checkBudget(file: ProjectFile, words: number, {findings}: RuleContext): void {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1)
  const at = {line: file.bodyStartLine ?? 1, column: 1}
  if (file.kind === 'decision' || file.kind === 'criterion') {
    if (words > CONTEXT_ENTRY_MAX_WORDS) findings.add(file, 'context-budget', `${words} words; a ${file.kind} holds at most ${CONTEXT_ENTRY_MAX_WORDS}`, at)
    return
  }
  if (!REQUIRED.has(name) && !OPTIONAL.has(name)) return // counted in the total only
  if (words > CONTEXT_ERROR_WORDS) findings.add(file, 'context-budget', `${words} words; a context file holds at most ${CONTEXT_ERROR_WORDS}`, at)
  else if (words > CONTEXT_WARN_WORDS && REQUIRED.has(name)) {
    findings.add(file, 'context-budget', `${words} words; aim for at most ${CONTEXT_WARN_WORDS} (${CONTEXT_ERROR_WORDS} is the hard limit)`, at, 'warning')
  }
}
