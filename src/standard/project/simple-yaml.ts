/**
 * A fast reader for the flat YAML that frontmatter almost always is:
 * `key: scalar`, `key: [a, b]` and `key:` followed by `- item` lines.
 *
 * Why: the `yaml` package builds a full CST + Document per file, about five
 * times the cost of reading the file; over 10,000 tasks that dominates
 * `mesh validate`. This reader returns exactly what `yaml` (YAML 1.2 core
 * schema, so `2026-01-05` stays a string) returns for the subset, and returns
 * `undefined` for anything outside it, so the caller falls back to `yaml`,
 * which also produces the error and its position for broken input.
 */

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?$/
const ITEM_LINE = /^([ ]*)-(?:[ ]+(.*))?$/
const INT = /^[-+]?[0-9]+$/
/** Plain scalars the core schema reads as something other than a string or int (floats, hex, octal, inf, nan). */
const OTHER_NUMBER = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/
const NULL = /^(?:~|null|Null|NULL)$/
const TRUE = /^(?:true|True|TRUE)$/
const FALSE = /^(?:false|False|FALSE)$/
/** First characters that make a plain scalar something else (YAML 1.2 §7.3.3 indicators). */
const INDICATOR_START = /^[[\]{},#&*!|>%@`'"?:-]/
const GIVE_UP = Symbol('give up')
type Scalar = string | number | boolean | null

/** Parses `text` if it is flat frontmatter YAML; `undefined` means "use the full parser". */
export function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (text.includes('\t')) return undefined
  const out: Record<string, unknown> = {}
  const lines = text.split('\n')
  let listKey: string | undefined // key whose value is an open block sequence
  let listIndent = -1
  for (let raw of lines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1)
    const first = raw.charCodeAt(0)
    // Fast skip of blank and comment lines; only lines starting with a space need trimming to tell.
    if (raw === '' || first === 35 /* # */) continue
    if (first === 32) {
      const trimmed = raw.trim()
      if (trimmed === '' || trimmed.startsWith('#')) continue
    }
    if (first === 32 /* space */ || first === 45 /* - */) {
      if (listKey === undefined) return undefined
      const item = ITEM_LINE.exec(raw)
      if (!item) return undefined
      const indent = item[1].length
      if (listIndent === -1) listIndent = indent
      else if (indent !== listIndent) return undefined
      const value = item[2] === undefined ? null : scalar(item[2], false)
      if (value === GIVE_UP) return undefined
      let list = out[listKey]
      if (list === null) out[listKey] = list = []
      ;(list as Scalar[]).push(value)
      continue
    }
    const match = KEY_LINE.exec(raw)
    if (!match) return undefined
    const key = match[1]
    if (Object.prototype.hasOwnProperty.call(out, key) || key === '__proto__') return undefined
    const rest = match[2]?.trimEnd() ?? ''
    if (rest === '') {
      out[key] = null
      listKey = key
      listIndent = -1
      continue
    }
    listKey = undefined
    const value = rest.startsWith('[') ? flowSequence(rest) : scalar(rest, true)
    if (value === GIVE_UP) return undefined
    out[key] = value
  }
  return out
}

/** `[a, b, c]` of plain scalars; anything fancier gives up. */
function flowSequence(text: string): Scalar[] | typeof GIVE_UP {
  if (!text.endsWith(']')) return GIVE_UP
  const inner = text.slice(1, -1)
  if (/[[\]{}"'#]/.test(inner)) return GIVE_UP
  if (inner.trim() === '') return []
  const items: Scalar[] = []
  for (const part of inner.split(',')) {
    const item = part.trim()
    if (item === '') return GIVE_UP
    // In flow context ':' may start a mapping entry: leave it to the full parser.
    if (item.includes(':')) return GIVE_UP
    const value = scalar(item, false)
    if (value === GIVE_UP) return GIVE_UP
    items.push(value)
  }
  return items
}

/** One scalar: simple quoted strings or a plain scalar resolved by the core schema. */
function scalar(text: string, topLevel: boolean): Scalar | typeof GIVE_UP {
  const value = text.trim()
  if (value === '') return null
  const quote = value[0]
  if (quote === '"' || quote === "'") {
    if (value.length < 2 || value[value.length - 1] !== quote) return GIVE_UP
    const inner = value.slice(1, -1)
    // Escapes and doubled quotes are the full parser's job.
    if (inner.includes(quote) || inner.includes('\\')) return GIVE_UP
    return inner
  }
  if (INDICATOR_START.test(value)) {
    // A leading '-' is fine for negative numbers and words like "-x"; not for "- " (a nested sequence).
    if (!(value[0] === '-' && value.length > 1 && value[1] !== ' ')) return GIVE_UP
  }
  if (!topLevel && value.startsWith('- ')) return GIVE_UP
  if (value.includes(' #') || value.includes(': ') || value.endsWith(':')) return GIVE_UP
  if (NULL.test(value)) return null
  if (TRUE.test(value)) return true
  if (FALSE.test(value)) return false
  if (INT.test(value)) {
    const number = Number(value)
    return Number.isSafeInteger(number) ? number : GIVE_UP
  }
  if (OTHER_NUMBER.test(value)) return GIVE_UP
  return value
}
