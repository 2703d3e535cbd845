/**
 * Finds where a JSON text stops being JSON. V8's JSON.parse often says only
 * "Unexpected token '}', … is not valid JSON" with no position; a finding
 * needs a line, so on failure this small scanner walks the grammar (RFC 8259)
 * and returns the offset of the first character that breaks it.
 */
export function jsonErrorOffset(text: string): number {
  let at = 0
  const fail = (): never => {
    throw at
  }
  const space = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++
  }
  const literal = (word: string) => {
    if (text.startsWith(word, at)) at += word.length
    else fail()
  }
  const string = () => {
    if (text[at] !== '"') fail()
    at++
    while (at < text.length && text[at] !== '"') {
      const code = text.charCodeAt(at)
      if (code < 0x20) fail()
      if (text[at] === '\\') {
        at++
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail()
          at += 4
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail()
      }
      at++
    }
    if (at >= text.length) fail()
    at++
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400))
    if (!match) fail()
    at += (match as RegExpExecArray)[0].length
  }
  const value = (): void => {
    space()
    const char = text[at]
    if (char === '{') {
      at++
      space()
      if (text[at] === '}') return void at++
      for (;;) {
        space()
        string()
        space()
        if (text[at] !== ':') fail()
        at++
        value()
        space()
        if (text[at] === ',') at++
        else if (text[at] === '}') return void at++
        else fail()
      }
    } else if (char === '[') {
      at++
      space()
      if (text[at] === ']') return void at++
      for (;;) {
        value()
        space()
        if (text[at] === ',') at++
        else if (text[at] === ']') return void at++
        else fail()
      }
    } else if (char === '"') string()
    else if (char === 't') literal('true')
    else if (char === 'f') literal('false')
    else if (char === 'n') literal('null')
    else number()
  }
  try {
    if (text.charCodeAt(0) === 0xfeff) at = 1
    value()
    space()
    return at < text.length ? at : text.length
  } catch (offset) {
    // A RangeError (nesting deeper than the stack) stops where the scan had got to.
    return Math.min(typeof offset === 'number' ? offset : at, text.length)
  }
}
