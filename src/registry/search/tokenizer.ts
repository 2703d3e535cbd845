/**
 * Text → index terms, the same way for cards and prompts: Unicode
 * normalisation (NFKD, accents dropped: "café" = "cafe"), lower case,
 * splitting on anything that is not a letter or digit in any script, CJK runs
 * cut into overlapping bigrams (those scripts put no spaces between words),
 * English stop words dropped, and a light suffix stemmer so "images",
 * "image" and "imaging" meet.
 */

// Words that carry no meaning in a prompt like "I need an agent that can …".
const STOP_WORDS = new Set(
  ('a an and are as at be but by can could do does for from get give has have help how i if in into is it its me my need '
    + 'of on or our please should so some than that the their them then there these this those to us use using want was we '
    + 'what when which who will with would you your').split(' '),
)

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'
const CJK_RUN = new RegExp(`^[${CJK}]+$`, 'u')
// A piece like "画像generation" is cut where the script changes.
const SCRIPT_RUNS = new RegExp(`[${CJK}]+|[^${CJK}]+`, 'gu')
const SPLIT = /[^\p{L}\p{N}]+/u
const MARKS = /\p{M}+/gu
const ASCII = /^[\x00-\x7f]*$/
const ASCII_SPLIT = /[^a-z0-9]+/

/** Conservative suffix stripping; both sides of a match go through it, so stems need not be words. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word
  let w = word
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y'
  else if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (/(?:sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2)
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1)
  if (w.endsWith('ization') || w.endsWith('isation')) w = w.slice(0, -5)
  else if (w.endsWith('ation') && w.length > 7) w = w.slice(0, -3)
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3)
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2)
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1)
  // "running" → "runn" → "run"; keep ll/ss/zz, which are part of many stems.
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !'lsz'.includes(w[w.length - 1]) && !/[aeiou]/.test(w[w.length - 1])) w = w.slice(0, -1)
  return w
}

/** Splits a run of CJK characters into overlapping bigrams (a lone character stays as is). */
function cjkTerms(run: string): string[] {
  const chars = [...run]
  if (chars.length === 1) return chars
  const out: string[] = []
  for (let i = 0; i < chars.length - 1; i++) out.push(chars[i] + chars[i + 1])
  return out
}

/**
 * The index terms of a text, in order, duplicates kept (term frequency counts).
 * `keepStopWords` is for names and tags, where every word was chosen on purpose.
 */
export function tokenize(text: string, options: {keepStopWords?: boolean} = {}): string[] {
  const out: string[] = []
  let pieces: string[]
  const ascii = ASCII.test(text)
  if (ascii) {
    // Most cards and prompts: no normalisation or script detection needed.
    pieces = text.toLowerCase().split(ASCII_SPLIT)
  } else {
    // NFC again after dropping marks, so Hangul syllables recompose.
    const folded = text.normalize('NFKD').replace(MARKS, '').normalize('NFC').toLowerCase()
    pieces = folded.split(SPLIT).flatMap((part) => part.match(SCRIPT_RUNS) ?? [])
  }
  for (const piece of pieces) {
    if (piece === '') continue
    if (!ascii && CJK_RUN.test(piece)) {
      out.push(...cjkTerms(piece))
      continue
    }
    if (!options.keepStopWords && STOP_WORDS.has(piece)) continue
    out.push(stem(piece))
  }
  return out
}
