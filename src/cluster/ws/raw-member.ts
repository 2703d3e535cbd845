/**
 * The exact source text of one member of a JSON object, so the relay can
 * pass a client's `payload` on byte for byte (spec: "The relay treats the
 * payload as opaque"). Re-serializing the parsed value would not be opaque:
 * `1e400` would become `null`, `12345678901234567890` would lose digits,
 * and a payload nested deeper than JSON.stringify can recurse would throw.
 *
 * The scanner runs only on text JSON.parse has already accepted; it is
 * iterative (no recursion, whatever the nesting) and jumps between quotes and
 * brackets with native searches. On any other text it still ends, in linear
 * time (every step moves forward), with some answer: it never hangs the node.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const COLON = 0x3a
/** The next quote or bracket, from `lastIndex`. */
const STRUCTURAL = /["[\]{}]/g

const isJsonSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

function skipSpace(text: string, i: number): number {
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++
  return i
}

/** `start` is at an opening quote; returns the index just past the closing one. */
function skipString(text: string, start: number): number {
  let i = start + 1
  for (;;) {
    const quote = text.indexOf('"', i)
    if (quote < 0) return text.length
    // A quote preceded by an odd number of backslashes is escaped.
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    i = quote + 1
  }
}

/** `start` is at `{` or `[`; returns the index just past the matching close. */
function skipNested(text: string, start: number): number {
  let depth = 0
  STRUCTURAL.lastIndex = start
  for (;;) {
    const match = STRUCTURAL.exec(text)
    if (!match) return text.length
    const at = match.index
    const code = text.charCodeAt(at)
    if (code === QUOTE) {
      STRUCTURAL.lastIndex = skipString(text, at)
      continue
    }
    depth += code === OPEN_BRACE || code === OPEN_BRACKET ? 1 : -1
    if (depth === 0) return at + 1
    STRUCTURAL.lastIndex = at + 1
  }
}

/** `start` is at the first character of a value; returns the index just past it. */
function skipValue(text: string, start: number): number {
  const code = text.charCodeAt(start)
  if (code === QUOTE) return skipString(text, start)
  if (code === OPEN_BRACE || code === OPEN_BRACKET) return skipNested(text, start)
  // A number, true, false or null runs to the next separator or space.
  let i = start
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === COMMA || c === CLOSE_BRACE || c === 0x5d || isJsonSpace(c)) break
    i++
  }
  return i
}

/** An escaped key's name; on text that is not JSON, a name no caller asks for. */
function parseKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return ''
  }
}

/**
 * The source text of member `key` of the JSON object `text` (which
 * JSON.parse accepted and which parsed to a plain object), or undefined when
 * the object has no such member. Like JSON.parse, the last of duplicate keys
 * wins, and keys written with escapes (`"pay\u006coad"`) count.
 */
export function rawMember(text: string, key: string): string | undefined {
  let found: string | undefined
  let i = skipSpace(text, 0) + 1 // past `{`
  while (i < text.length) {
    i = skipSpace(text, i)
    if (text.charCodeAt(i) !== QUOTE) return found // `}` of an empty object
    const keyEnd = skipString(text, i)
    const rawKey = text.slice(i + 1, keyEnd - 1)
    const name = rawKey.includes('\\') ? parseKey(text.slice(i, keyEnd)) : rawKey
    i = skipSpace(text, keyEnd)
    // At the colon (valid JSON guarantees it).
    if (text.charCodeAt(i) === COLON) i++
    const valueStart = skipSpace(text, i)
    const valueEnd = skipValue(text, valueStart)
    if (name === key) found = text.slice(valueStart, valueEnd)
    i = skipSpace(text, valueEnd)
    if (text.charCodeAt(i) !== COMMA) return found
    i++
  }
  return found
}
