/**
 * A client's stdout as lines of text the daemon can store and show: decoded
 * as UTF-8 (bytes that are not become U+FFFD), terminal escapes and control
 * characters removed, each line cut at MAX_LINE_CHARS. A client printing
 * garbage gives garbage-free lines, never a broken timeline line.
 */
import {StringDecoder} from 'node:string_decoder'
import {MAX_LINE_CHARS} from './constants.js'

// ANSI CSI/OSC sequences, then every C0 control but tab, and DEL.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g

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

export function splitLines(onLine: (line: string) => void): LineSplitter {
  const decoder = new StringDecoder('utf8')
  let partial = ''
  return {
    push(chunk) {
      partial += decoder.write(chunk)
      let newline = partial.indexOf('\n')
      while (newline !== -1) {
        onLine(cleanLine(partial.slice(0, newline)))
        partial = partial.slice(newline + 1)
        newline = partial.indexOf('\n')
      }
      // A line that never ends is cut here rather than held whole.
      if (partial.length > MAX_LINE_CHARS * 2) {
        onLine(cleanLine(partial))
        partial = ''
      }
    },
    end() {
      partial += decoder.end()
      if (partial !== '') onLine(cleanLine(partial))
      partial = ''
    },
  }
}
