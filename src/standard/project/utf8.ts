import {invalid} from '../../lib/errors.js'
import type {ParseProblem} from './types.js'

/**
 * Byte offset where the first sequence that breaks UTF-8 starts (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or -1 when `bytes` is valid.
 * Only called on files whose decoded text shows a replacement character, so
 * the common path never walks bytes in JavaScript.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let at = 0
  while (at < bytes.length) {
    const lead = bytes[at]
    if (lead < 0x80) {
      at++
      continue
    }
    let length: number
    let low = 0x80
    let high = 0xbf
    if (lead >= 0xc2 && lead <= 0xdf) length = 2
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3
      if (lead === 0xe0) low = 0xa0
      if (lead === 0xed) high = 0x9f
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4
      if (lead === 0xf0) low = 0x90
      if (lead === 0xf4) high = 0x8f
    } else return at
    for (let index = 1; index < length; index++) {
      const next = bytes[at + index]
      if (next === undefined || next < (index === 1 ? low : 0x80) || next > (index === 1 ? high : 0xbf)) return at
    }
    at += length
  }
  return -1
}

/** A parse problem naming the first byte that is not UTF-8, with its line and column. */
export function utf8Problem(bytes: Uint8Array, offset: number): ParseProblem {
  let line = 1
  let lineStart = 0
  for (let index = 0; index < offset; index++) {
    if (bytes[index] === 0x0a) {
      line++
      lineStart = index + 1
    }
  }
  const column = Buffer.from(bytes.subarray(lineStart, offset)).toString('utf8').length + 1
  const byte = `byte 0x${bytes[offset].toString(16).toUpperCase().padStart(2, '0')}`
  return {line, column, message: `not valid UTF-8 (${byte}); save the file as UTF-8`}
}

/**
 * The text of a file that mesh is about to rewrite, from its bytes (read
 * without following a link). Refuses (`file_not_utf8`) when it is not UTF-8:
 * decoding would turn its bytes into U+FFFD, and writing the text back would
 * destroy them.
 */
export function decodeUtf8ForRewrite(bytes: Buffer, shownPath: string): string {
  const offset = firstInvalidUtf8(bytes)
  if (offset !== -1) {
    const problem = utf8Problem(bytes, offset)
    throw invalid('file_not_utf8', `${shownPath}:${problem.line}:${problem.column}: ${problem.message}; nothing was changed.`)
  }
  return bytes.toString('utf8')
}
