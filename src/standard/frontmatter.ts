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

/** The first line of a yaml-package error without its own "at line N, column M:" and code excerpt. */
export function yamlSentence(message: string): string {
  const sentence = message.split('\n')[0].replace(/\s+at line \d+, column \d+:?$/, '')
  // The parser recurses per level: thousands of nested brackets exhaust the stack. Say what that means.
  return sentence === 'Maximum call stack size exceeded' ? 'nested too deeply to be read' : sentence
}

/**
 * One line for an error met while reading a file: the sentence, and for a
 * YAML error its position as a line of the file (`startLine` is the file line
 * the YAML starts on: 2 for frontmatter).
 */
export function describeReadError(error: unknown, startLine = 1): string {
  const {message, linePos} = error as {message?: string; linePos?: [{line: number; col: number}]}
  const sentence = yamlSentence(String(message ?? error))
  const at = linePos?.[0]
  return at ? `${sentence} (line ${at.line + startLine - 1}, column ${at.col})` : sentence
}

/** Serialises frontmatter + body back into a file; key order is the object's order. */
export function stringifyFrontmatter(data: Record<string, unknown>, body: string): string {
  const yamlText = stringify(data, {lineWidth: 0, defaultStringType: 'PLAIN'}).trimEnd()
  return `---\n${yamlText}\n---\n${body}`
}

/**
 * Rewrites only the frontmatter of a fenced file: `edit` changes the parsed
 * YAML document in place (set, delete), and everything after the closing
 * fence line — the body — is returned byte-for-byte. Key order, comments and
 * the style of untouched keys survive, because the document is edited, not
 * re-serialised from plain data.
 */
export function editFrontmatter(text: string, edit: (document: Document.Parsed) => void): string {
  const split = splitFrontmatter(text)
  if (!split.hasFrontmatter || split.unterminated) throw new Error('the file has no complete --- frontmatter block')
  const document = parseDocument(split.yamlText, {prettyErrors: true, uniqueKeys: true})
  if (document.errors.length > 0) throw document.errors[0]
  edit(document)
  let yamlText = document.contents === null ? '' : document.toString({lineWidth: 0, flowCollectionPadding: false})
  if (yamlText === '{}\n') yamlText = ''
  // A CRLF file stays CRLF: the yaml package always writes LF.
  if (split.yamlText.includes('\r\n')) yamlText = yamlText.replace(/\r?\n/g, '\r\n')
  // What precedes the YAML (BOM + opening fence) and the closing fence line are kept as they were.
  const head = text.slice(0, text.length - split.body.length - split.yamlText.length - closingFenceLength(text, split))
  const closing = text.slice(text.length - split.body.length - closingFenceLength(text, split), text.length - split.body.length)
  return `${head}${yamlText}${closing}${split.body}`
}

/** Length of the closing fence line (`---` plus its line ending) of a split file. */
function closingFenceLength(text: string, split: SplitFile): number {
  const beforeBody = text.slice(0, text.length - split.body.length)
  const match = /---[ \t]*(\r?\n)?$/.exec(beforeBody)
  return match ? match[0].length : 0
}
