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

const RUNS = /\d+|\D+/g

/**
 * Orders ids like a person does, `P2` before `P10`: digit runs compare as
 * numbers, other runs by code unit; equal-looking ids (`P01`, `P1`) fall
 * back to code-unit order, so the order is total.
 */
export function compareIds(a: string, b: string): number {
  const left = a.match(RUNS) ?? []
  const right = b.match(RUNS) ?? []
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index]
    const y = right[index]
    if (x === y) continue
    const xDigits = x.charCodeAt(0) <= 57 && x.charCodeAt(0) >= 48
    const yDigits = y.charCodeAt(0) <= 57 && y.charCodeAt(0) >= 48
    if (xDigits && yDigits) {
      const xNumber = x.replace(/^0+(?=\d)/, '')
      const yNumber = y.replace(/^0+(?=\d)/, '')
      if (xNumber.length !== yNumber.length) return xNumber.length - yNumber.length
      if (xNumber !== yNumber) return compareText(xNumber, yNumber)
      continue
    }
    return compareText(x, y)
  }
  return left.length - right.length || compareText(a, b)
}
