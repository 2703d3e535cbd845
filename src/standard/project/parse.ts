import {parseDocument} from 'yaml'
import {parseFrontmatter, splitFrontmatter, yamlSentence} from '../frontmatter.js'
import {jsonErrorOffset} from './json-error.js'
import {parseSimpleYaml} from './simple-yaml.js'
import type {FileFormat, JsonlRecord, ParseProblem, ProjectFile} from './types.js'

/** Number of line breaks in `text`. */
export function countNewlines(text: string): number {
  let count = 0
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++
  return count
}

/** The 1-based line of the character at `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++
  return line
}

/** The finding has the position, so the message drops the yaml package's own. */
const firstLine = yamlSentence

/** A yaml-package error → position in the file, given the line the YAML starts on. */
function yamlProblem(error: unknown, startLine: number): ParseProblem {
  const {linePos, message} = error as {linePos?: [{line: number; col: number}]; message?: string}
  const position = linePos?.[0]
  return {
    line: (position?.line ?? 1) + startLine - 1,
    column: position?.col ?? 1,
    message: firstLine(message ?? String(error)),
  }
}

/** A JSON.parse error → position (Node reports "at position N", newer Nodes also line/column). */
export function jsonProblem(error: unknown, text: string, lineOffset = 0): ParseProblem {
  const message = (error as Error).message ?? String(error)
  const match = /position (\d+)/.exec(message)
  const offset = match ? Number(match[1]) : jsonErrorOffset(text)
  const before = text.slice(0, offset)
  const line = countNewlines(before) + 1
  const column = offset - (before.lastIndexOf('\n') + 1) + 1
    // V8 quotes the whole text in some messages; keep the sentence, not the file.
  const sentence = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/, ".*" is not valid JSON$/s, '')
  return {line: line + lineOffset, column, message: `invalid JSON: ${sentence}`}
}

/** Fills the parsed fields of `file` from its text, by format. Never throws. */
export function parseFile(file: ProjectFile, format: FileFormat): void {
  const text = file.text
  if (text === undefined) return
  switch (format) {
    case 'frontmatter':
      return parseFrontmatterFile(file, text)
    case 'markdown': {
      const split = splitFrontmatter(text)
      file.hasFrontmatter = split.hasFrontmatter && !split.unterminated
      file.body = file.hasFrontmatter ? split.body : text
      file.bodyStartLine = file.hasFrontmatter ? split.yamlStartLine + countNewlines(split.yamlText) + 1 : 1
      return
    }
    case 'yaml': {
      const document = parseDocument(text, {prettyErrors: true, uniqueKeys: true})
      if (document.errors.length > 0) file.parseError = yamlProblem(document.errors[0], 1)
      else file.data = document.toJS()
      return
    }
    case 'json':
      try {
        file.data = JSON.parse(text)
      } catch (error) {
        file.parseError = jsonProblem(error, text)
      }
      return
    case 'jsonl':
      file.records = parseJsonl(text)
      return
    default:
  }
}

function parseFrontmatterFile(file: ProjectFile, text: string): void {
  const split = splitFrontmatter(text)
  file.hasFrontmatter = split.hasFrontmatter
  if (!split.hasFrontmatter) {
    file.body = text
    file.bodyStartLine = 1
    return
  }
  if (split.unterminated) {
    file.parseError = {line: 1, column: 1, message: 'the frontmatter opened with --- on line 1 is never closed by a --- line'}
    return
  }
  file.yamlText = split.yamlText
  file.yamlStartLine = split.yamlStartLine
  file.body = split.body
  file.bodyStartLine = split.yamlStartLine + countNewlines(split.yamlText) + 1
  const fast = parseSimpleYaml(split.yamlText)
  if (fast) {
    file.data = fast
    return
  }
  try {
    file.data = parseFrontmatter(text).data
  } catch (error) {
    file.parseError = yamlProblem(error, split.yamlStartLine)
  }
}

function parseJsonl(text: string): JsonlRecord[] {
  const records: JsonlRecord[] = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim()
    if (line === '') continue
    try {
      records.push({line: index + 1, data: JSON.parse(line)})
    } catch (error) {
      records.push({line: index + 1, error: jsonProblem(error, lines[index], index)})
    }
  }
  return records
}
