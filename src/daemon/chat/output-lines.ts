/**
 * A client's stdout as lines the daemon can store and show: decoded as UTF-8
 * (bytes that are not become U+FFFD), terminal escapes and control
 * characters removed, each line cut at MAX_LINE_CHARS. A client printing
 * garbage gives garbage-free lines, never a broken timeline line.
 *
 * Removed: every C0 control but tab, DEL, the C1 controls (U+0080–U+009F,
 * which some terminals obey as escapes) and the bidirectional controls
 * (U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees (issue
 * 19, deliverable 8; the "Trojan Source" attack, CVE-2021-42574).
 */
import {StringDecoder} from 'node:string_decoder'
import {MAX_LINE_CHARS} from './constants.js'

// ANSI CSI/OSC sequences, then every C0 control but tab, and DEL.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** Removes terminal escapes and control characters from text that may span lines (newlines and tabs kept). */
export const cleanText = (text: string): string => text.replace(/\r\n?/g, '\n').replace(ESCAPES, '').replace(CONTROLS, '')

export function cleanLine(line: string): string {
  const clean = line.replace(/\r$/, '').replace(ESCAPES, '').replace(CONTROLS, '')
  return clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}…` : clean
}

export interface LineSplitter {
  /** Feeds bytes; calls `onLine` for every whole line. */
  push(chunk: Buffer): void
  /** The last line without a newline, if any. */
  end(): void
}

export interface SplitOptions {
  /** Clean each line (cleanLine); off for a structured stream, whose JSON lines are decoded first. */
  clean?: boolean
  /** A line still open past this many characters is handed over as it is. */
  maxChars?: number
  /** Instead of handing over a line past `maxChars`, drop it up to its newline and say so. */
  onOverlong?(chars: number): void
}

export function splitLines(onLine: (line: string) => void, options: SplitOptions = {}): LineSplitter {
  const clean = options.clean ?? true
  const maxChars = options.maxChars ?? MAX_LINE_CHARS * 2
  const decoder = new StringDecoder('utf8')
  let partial = ''
  let dropping = 0
  const hand = (line: string) => onLine(clean ? cleanLine(line) : line)
  return {
    push(chunk) {
      partial += decoder.write(chunk)
      let newline = partial.indexOf('\n')
      while (newline !== -1) {
        if (dropping > 0) {
          options.onOverlong?.(dropping + newline)
          dropping = 0
        } else hand(partial.slice(0, newline))
        partial = partial.slice(newline + 1)
        newline = partial.indexOf('\n')
      }
      // A line that never ends is cut here rather than held whole.
      if (partial.length > maxChars) {
        if (options.onOverlong) dropping += partial.length
        else hand(partial)
        partial = ''
      }
    },
    end() {
      partial += decoder.end()
      if (dropping > 0) options.onOverlong?.(dropping + partial.length)
      else if (partial !== '') hand(partial)
      partial = ''
      dropping = 0
    },
  }
}
