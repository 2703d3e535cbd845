/**
 * Orderings that give the same result on every machine. `localeCompare`
 * follows the process locale (under `lt_LT`, `y` sorts before `j`), which
 * would make generated files such as roadmap/state.json differ between two
 * checkouts of the same commit.
 */

/** Plain UTF-16 code-unit order. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const isDigit = (code: number) => code >= 48 && code <= 57

/** Where the run (digits, or not digits) starting at `from` ends. */
function runEnd(text: string, from: number): number {
  const digits = isDigit(text.charCodeAt(from))
  let end = from + 1
  while (end < text.length && isDigit(text.charCodeAt(end)) === digits) end++
  return end
}

/** Code-unit order of `a[aFrom, aTo)` and `b[bFrom, bTo)`, as compareText orders the two slices. */
function compareSlices(a: string, aFrom: number, aTo: number, b: string, bFrom: number, bTo: number): number {
  for (let i = aFrom, j = bFrom; i < aTo && j < bTo; i++, j++) {
    const difference = a.charCodeAt(i) - b.charCodeAt(j)
    if (difference !== 0) return difference < 0 ? -1 : 1
  }
  return Math.sign(aTo - aFrom - (bTo - bFrom))
}

/**
 * Orders ids like a person does, `P2` before `P10`: digit runs compare as
 * numbers, other runs by code unit; equal-looking ids (`P01`, `P1`) fall
 * back to code-unit order, so the order is total. Walks the strings in
 * place (boards sort thousands of ids on every change).
 */
export function compareIds(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const aEnd = runEnd(a, i)
    const bEnd = runEnd(b, j)
    if (isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      // As numbers: leading zeros dropped (one digit kept), then the longer is larger, then digit by digit.
      let x = i
      let y = j
      while (x < aEnd - 1 && a.charCodeAt(x) === 48) x++
      while (y < bEnd - 1 && b.charCodeAt(y) === 48) y++
      if (aEnd - x !== bEnd - y) return aEnd - x - (bEnd - y)
      const order = compareSlices(a, x, aEnd, b, y, bEnd)
      if (order !== 0) return order
    } else {
      const order = compareSlices(a, i, aEnd, b, j, bEnd)
      if (order !== 0) return order
    }
    i = aEnd
    j = bEnd
  }
  // One ran out of runs first: fewer runs first; as many: code-unit order.
  if (i < a.length) return 1
  if (j < b.length) return -1
  return compareText(a, b)
}
