import {invalid} from '../../lib/errors.js'
import {MARKERS} from '../constants.js'

/** The four markers of an instructions file, in the order they must appear. */
export const INSTRUCTION_MARKERS = [MARKERS.preambleBegin, MARKERS.preambleEnd, MARKERS.operatorBegin, MARKERS.operatorEnd] as const

/** Where the blocks of an instructions file sit (string offsets). */
export interface MarkedFile {
  text: string
  /** Offset of each marker's first character, in INSTRUCTION_MARKERS order. */
  at: [number, number, number, number]
  /** The bytes between `preamble:begin` and `preamble:end`. */
  preamble: string
  /** The bytes between `operator:begin` and `operator:end`: the operator's own text. */
  operator: string
}

/** Every place `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = []
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at)
  return found
}

/**
 * Finds the preamble and operator blocks. Each marker must appear exactly once
 * and in the order preamble:begin, preamble:end, operator:begin, operator:end;
 * otherwise throws `markers_invalid` naming the file and the marker, so that
 * a refresh changes nothing rather than guess (spec item 3).
 */
export function parseMarkedFile(text: string, name: string): MarkedFile {
  const at: number[] = []
  for (const marker of INSTRUCTION_MARKERS) {
    const found = occurrences(text, marker)
    if (found.length === 0) throw invalid('markers_invalid', `${name}: the marker ${marker} is missing; nothing was changed.`)
    if (found.length > 1) throw invalid('markers_invalid', `${name}: the marker ${marker} appears ${found.length} times; it must appear once. Nothing was changed.`)
    at.push(found[0])
  }
  for (let i = 1; i < at.length; i++) {
    if (at[i] < at[i - 1]) {
      throw invalid('markers_invalid', `${name}: ${INSTRUCTION_MARKERS[i]} comes before ${INSTRUCTION_MARKERS[i - 1]}; the order must be preamble:begin, preamble:end, operator:begin, operator:end. Nothing was changed.`)
    }
  }
  const [preambleBegin, preambleEnd, operatorBegin, operatorEnd] = at
  return {
    text,
    at: at as MarkedFile['at'],
    preamble: text.slice(preambleBegin + MARKERS.preambleBegin.length, preambleEnd),
    operator: text.slice(operatorBegin + MARKERS.operatorBegin.length, operatorEnd),
  }
}

/**
 * A target's text: the source byte for byte, except that the operator block's
 * inside is `operator` (the target's own, or the source's for a new target).
 */
export function renderTarget(source: MarkedFile, operator: string): string {
  const [, , operatorBegin, operatorEnd] = source.at
  return source.text.slice(0, operatorBegin + MARKERS.operatorBegin.length) + operator + source.text.slice(operatorEnd)
}
