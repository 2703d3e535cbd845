/**
 * The skill-description rule (spec Skill: the description "must let a reader
 * with no other context know when to use the skill, inputs and ranges,
 * output shape, latency, price and free allowance"). Whether prose says
 * something cannot be decided by a program, so these are lexical heuristics
 * over English text, each a warning: they look for the words people use to
 * say each part (docs/cards.md lists them). They err towards silence: a
 * description that says a part in other words passes only if it uses one of
 * these cues.
 */

/** The parts of a skill description, in the spec's order, with their rule ids. */
export type DescriptionPart = 'when' | 'inputs' | 'output' | 'latency' | 'price' | 'allowance'

// "Use it when…", "use this to…", "whenever you…", "useful for…", "good for…", "ideal when…", "for agents that…".
const WHEN = /\buse (it |this |this skill |me )?(when|for|to|if|whenever)\b|\bwhen(ever)? (you|a caller|callers|an agent|agents|someone|users?) (need|want|have|must)|\buseful (for|when)\b|\bgood for\b|\bideal (for|when)\b|\bfor (callers|anyone|agents|people|users) (who|that)\b/i

// Words that introduce inputs; the skill's own input property names count too.
const INPUT_WORDS = /\b(inputs?|takes?|accepts?|sends?|body|fields?|param(eter)?s?|arguments?|given|provide[ds]?|expects?)\b/i
// A range or limit: a number, a bound word or sign, an enumeration.
const RANGE_WORDS = /\d|\bup to\b|\bat (most|least)\b|\bmax(imum)?\b|\bmin(imum)?\b|\bbetween\b|\blimit(s|ed)?\b|\bone of\b|\brange\b|[≤≥<>]/i
// A skill may take nothing at all.
const NO_INPUT = /\b(no|without) (input|parameters|arguments|body)\b|\bempty (body|object)\b|\btakes nothing\b/i

// What comes back: "returns", "responds with", "the response", "output", "yields", "gives back", "answers with".
const OUTPUT = /\breturns?\b|\brespon(se|ds)\b|\banswers? with\b|\boutputs?\b|\byields?\b|\bgives back\b|\bresults? (is|are|in)\b/i

// A duration ("2 s", "300 ms", "about a minute"), the word latency, or instant / real-time.
const LATENCY = /\blatency\b|\d\s?(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?)\b|\b(a|one|few) (second|seconds|minute|minutes)\b|\binstant(ly)?\b|\bsub-?second\b|\breal[- ]time\b|\bimmediately\b/i

// A price: a currency, an amount of money, or the words price / cost / charge / paid.
const PRICE = /\blamports?\b|\bSOL\b|\bUSD\b|\$\s?\d|\bprice[ds]?\b|\bcosts?\b|\bpaid\b|\bcharge[ds]?\b|\bper (call|request)\b/i
const FREE = /\bfree\b/i

// A free allowance: "allowance", "N free calls", "free … per day", "daily", "per day".
const ALLOWANCE = /\ballowance\b|\bfree (calls?|requests?|tier|quota|uses?)\b|\d+ free\b|\bper day\b|\ba day\b|\bdaily\b/i

export interface DescriptionContext {
  /** Property names of the skill's input schema, if it has one. */
  inputNames: readonly string[]
  /** Whether the skill is paid (DECISIONS: Paid calls). */
  paid: boolean
}

const namesAWord = (text: string, names: readonly string[]) =>
  names.some((name) => name.length > 1 && new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(text))

/** The parts the description does not seem to state, in the spec's order. */
export function missingDescriptionParts(text: string, context: DescriptionContext): DescriptionPart[] {
  const missing: DescriptionPart[] = []
  if (!WHEN.test(text)) missing.push('when')
  const inputs = NO_INPUT.test(text) || ((INPUT_WORDS.test(text) || namesAWord(text, context.inputNames)) && RANGE_WORDS.test(text))
  if (!inputs) missing.push('inputs')
  if (!OUTPUT.test(text)) missing.push('output')
  if (!LATENCY.test(text)) missing.push('latency')
  // A free skill that says "free" has told both its price and its allowance.
  if (context.paid ? !PRICE.test(text) : !(FREE.test(text) || PRICE.test(text))) missing.push('price')
  if (context.paid && !ALLOWANCE.test(text)) missing.push('allowance')
  return missing
}

/** What each missing part's finding says. */
export const PART_MESSAGES: Record<DescriptionPart, string> = {
  when: 'does not say when to use the skill (e.g. "Use it when …")',
  inputs: 'does not name the inputs and their ranges (e.g. "text, 1–5,000 characters")',
  output: 'does not say what it returns (e.g. "Returns {translation}")',
  latency: 'does not give the latency (e.g. "answers in about 2 s")',
  price: 'does not give the price (e.g. "Free." or "5,000 lamports per call")',
  allowance: 'does not give the free allowance of this paid skill (e.g. "the first 10 calls per day are free")',
}
