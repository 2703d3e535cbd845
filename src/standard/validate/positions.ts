import {isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node} from 'yaml'
import type {ProjectFile} from '../project/index.js'

export interface Position {
  line: number
  column: number
}

/** What PositionIndex reads of a file: its path (the cache key) and its text. */
export type LocatableFile = Pick<ProjectFile, 'path' | 'text' | 'yamlText' | 'yamlStartLine'>

/** Where in a file a finding points: a fixed position, or a JSON pointer into its data. */
export type Where =
  | Position
  | {
      /** ajv instancePath, e.g. `/modules/2/parent`. */
      pointer: string
      /** Point at the key rather than the value (unknown keys). */
      key?: boolean
      /** Line of the JSONL record the pointer is inside. */
      recordLine?: number
    }

interface Source {
  document: Document.Parsed
  text: string
  startLine: number
  lineStarts?: number[]
}

/**
 * Maps JSON pointers to 1-based line/column by parsing the file again with
 * node ranges — only for files that have findings, so the fast path stays
 * fast. One parse per file (per JSONL record), cached.
 */
export class PositionIndex {
  private readonly sources = new Map<string, Source | null>()

  locate(file: LocatableFile, where: Where | undefined): Position {
    if (!where) return {line: 1, column: 1}
    if (!('pointer' in where)) return {line: where.line, column: where.column}
    const source = this.source(file, where.recordLine)
    if (!source) return {line: where.recordLine ?? file.yamlStartLine ?? 1, column: 1}
    const offset = offsetOf(source.document, where.pointer, where.key ?? false)
    if (offset === undefined) return {line: source.startLine, column: 1}
    return toPosition(source, offset)
  }

  private source(file: LocatableFile, recordLine?: number): Source | null {
    const cacheKey = `${file.path}\0${recordLine ?? ''}`
    const cached = this.sources.get(cacheKey)
    if (cached !== undefined) return cached
    let text: string | undefined
    let startLine = 1
    if (recordLine !== undefined) {
      text = file.text?.split('\n')[recordLine - 1]
      startLine = recordLine
    } else if (file.yamlText !== undefined) {
      text = file.yamlText
      startLine = file.yamlStartLine ?? 2
    } else {
      text = file.text
    }
    let source: Source | null = null
    if (text !== undefined) {
      const document = parseDocument(text, {keepSourceTokens: false})
      source = {document, text, startLine}
    }
    this.sources.set(cacheKey, source)
    return source
  }
}

/** Offset of the node (or key) a pointer names; the deepest existing ancestor when it is missing. */
function offsetOf(document: Document.Parsed, pointer: string, wantKey: boolean): number | undefined {
  const segments = pointer === '' ? [] : pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  let node: unknown = document.contents
  let best = rangeStart(node)
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]
    const last = index === segments.length - 1
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment)
      if (!pair) return best
      if (last && wantKey) return rangeStart(pair.key) ?? best
      node = pair.value
      best = rangeStart(node) ?? rangeStart(pair.key) ?? best
    } else if (isSeq(node)) {
      node = node.items[Number(segment)]
      if (node === undefined) return best
      best = rangeStart(node) ?? best
    } else {
      return best
    }
  }
  return best
}

const rangeStart = (node: unknown): number | undefined => (node as Node | null)?.range?.[0]

function toPosition(source: Source, offset: number): Position {
  if (!source.lineStarts) {
    const starts = [0]
    for (let index = source.text.indexOf('\n'); index !== -1; index = source.text.indexOf('\n', index + 1)) starts.push(index + 1)
    source.lineStarts = starts
  }
  const starts = source.lineStarts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle] <= offset) low = middle
    else high = middle - 1
  }
  return {line: source.startLine + low, column: offset - starts[low] + 1}
}
