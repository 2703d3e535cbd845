import {parseDocument, stringify, type Document} from 'yaml'

/**
 * A markdown file split at its `---` fences. `body` is kept byte-for-byte, so
 * rewriting the frontmatter never touches what a person wrote below it.
 */
export interface SplitFile {
  /** Whether the file opens with a `---` fence. */
  hasFrontmatter: boolean
  /** The YAML between the fences ('' when none). */
  yamlText: string
  /** 1-based line of the first YAML line in the file (2 when fenced), for finding positions. */
  yamlStartLine: number
  /** Everything after the closing fence line, untouched. */
  body: string
  /** A closing fence is missing: the file is broken. */
  unterminated: boolean
}

const OPEN = /^---[ \t]*\r?\n/
const CLOSE = /^---[ \t]*(\r?\n|$)/m

/** Splits a file into frontmatter YAML and body without parsing anything. */
export function splitFrontmatter(text: string): SplitFile {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const open = OPEN.exec(source)
  if (!open) return {hasFrontmatter: false, yamlText: '', yamlStartLine: 1, body: text, unterminated: false}
  const rest = source.slice(open[0].length)
  // An empty frontmatter closes on the very next line.
  const close = rest.startsWith('---') ? /^---[ \t]*(\r?\n|$)/.exec(rest) : CLOSE.exec(rest)
  if (!close) return {hasFrontmatter: true, yamlText: rest, yamlStartLine: 2, body: '', unterminated: true}
  return {
    hasFrontmatter: true,
    yamlText: rest.slice(0, close.index),
    yamlStartLine: 2,
    body: rest.slice(close.index + close[0].length),
    unterminated: false,
  }
}

export interface ParsedFrontmatter<T = Record<string, unknown>> extends SplitFile {
  data: T
  /** The YAML document with node ranges, for mapping a key path to a line. */
  document: Document.Parsed
}

/**
 * Parses frontmatter with the YAML 1.2 core schema, so `2026-01-05` stays the
 * string the schemas expect (YAML 1.1 loaders turn it into a Date). Throws
 * the yaml package's error (with linePos) on broken YAML.
 */
export function parseFrontmatter<T = Record<string, unknown>>(text: string): ParsedFrontmatter<T> {
  const split = splitFrontmatter(text)
  const document = parseDocument(split.yamlText, {prettyErrors: true, uniqueKeys: true})
  if (document.errors.length > 0) throw document.errors[0]
  const data = (document.toJS() ?? {}) as T
  return {...split, data, document}
}

/** Serialises frontmatter + body back into a file; key order is the object's order. */
export function stringifyFrontmatter(data: Record<string, unknown>, body: string): string {
  const yamlText = stringify(data, {lineWidth: 0, defaultStringType: 'PLAIN'}).trimEnd()
  return `---\n${yamlText}\n---\n${body}`
}
