import type {CardRule, Severity} from './types.js'

const rule = (id: string, severity: Severity, summary: string, fix: string, source: string): CardRule => ({id, severity, summary, fix, source})

/**
 * Every rule of `lintCard`, in the order docs/cards.md lists them. Each id
 * has one severity; where the spec says "must" or the registry or the kit
 * would refuse the card it is an error, where it says "should" or mesh
 * guesses from the text it is a warning.
 */
export const CARD_RULES: readonly CardRule[] = [
  // The card
  rule('card-schema', 'error', 'The card matches schemas/public-card.schema.json (with skill.schema.json and pricing.schema.json): required fields, types, lengths. Unknown keys are ignored.', 'Add the missing field or fix its type; the message names the field.', 'spec: PublicCard, Skill, Pricing'),
  rule('card-url-https', 'error', '`url` is an https URL.', 'Serve the agent over https and put that address in `url`.', 'spec: PublicCard (url: https URL)'),
  rule('card-url-localhost', 'warning', '`url` is http on localhost or a loopback address: fine while developing, unreachable for anyone else.', 'Publish the https address before registering.', 'spec: PublicCard (url: https URL)'),
  rule('card-description-length', 'error', 'The card `description` is at most 500 characters.', 'Shorten it to one paragraph; put the rest in documentationUrl.', 'spec: PublicCard, DiscoveryCard, Limits (description ≤ 500)'),
  // Skills
  rule('skill-id-kebab', 'error', 'A skill id is kebab-case: lower-case letters and digits joined by single hyphens, at most 64 characters.', 'Rename the id, e.g. `translate-text`; it is the path segment of POST /v1/<id>.', 'spec: Skill (id)'),
  rule('skill-id-unique', 'error', 'No two skills share an id.', 'Rename or remove one of them.', 'spec: Skill (one endpoint per skill)'),
  rule('skill-examples-count', 'error', 'A skill has 2 to 4 examples.', 'Add or remove examples.', 'spec: Skill (examples)'),
  rule('skill-example-json', 'error', 'At least one example is a literal JSON body (a string holding a JSON object) — the registry\'s card_match probe and callers use it.', 'Add an example such as `{"text": "hello"}`.', 'spec: Skill (examples); Agent liveness (card_match uses only published examples)'),
  rule('skill-example-ask', 'warning', 'At least one example is a natural-language ask (text that is not JSON, two words or more).', 'Add an example such as `Translate "good morning" into French.`', 'spec: Skill (examples)'),
  rule('skill-example-input', 'warning', 'Each JSON example satisfies the skill\'s input schema (inputSchema or input_schema).', 'Fix the example or the schema; the message names the first field that fails.', 'spec: Skill; an example the agent refuses with 400 matches nothing in a probe'),
  rule('skill-schema-invalid', 'error', 'inputSchema / outputSchema (either spelling) is a JSON Schema that compiles (draft 2020-12, as the kit compiles it).', 'Fix the schema; the message carries the compiler\'s reason.', 'spec: Skill (JSON Schema object)'),
  rule('skill-schema-spellings', 'warning', 'A skill that carries both spellings (inputSchema and input_schema, or outputSchema and output_schema) gives them the same value.', 'Keep one spelling; readers take inputSchema when both are there.', 'spec: Skill ("also spelled input_schema / output_schema")'),
  rule('skill-description-when', 'warning', 'The skill description says when to use the skill.', 'Add a sentence such as "Use it when …".', 'spec: Skill (description)'),
  rule('skill-description-inputs', 'warning', 'The skill description names its inputs and their ranges (or says it takes none).', 'Name the fields and their limits, e.g. "text (1–5,000 characters)".', 'spec: Skill (description)'),
  rule('skill-description-output', 'warning', 'The skill description says what comes back.', 'Add "Returns {…}" with the main fields.', 'spec: Skill (description)'),
  rule('skill-description-latency', 'warning', 'The skill description gives the latency.', 'Add e.g. "Answers in about 2 s".', 'spec: Skill (description)'),
  rule('skill-description-price', 'warning', 'The skill description gives the price (or says it is free).', 'Add e.g. "Free." or "Costs 5,000 lamports per call."', 'spec: Skill (description)'),
  rule('skill-description-allowance', 'warning', 'The description of a paid skill gives the free allowance.', 'Add e.g. "The first 10 calls per day are free."', 'spec: Skill (description); Pay-per-call (free allowance per caller per day)'),
  // returns
  rule('returns-path', 'error', 'Each `returns` entry is a flat dotted path: names joined by dots, each optionally followed by [<index>], no empty step (`image.url`, `items[0].id`).', 'Write the path as the prober reads it, e.g. `result.items[0].id`.', 'spec: Skill (returns); Discovery qualities (card_match)'),
  rule('returns-duplicate', 'warning', 'No `returns` path is listed twice (each counts in card_match\'s total).', 'Remove the repeated path.', 'spec: Discovery qualities (card_match)'),
  rule('returns-output-schema', 'warning', 'When the skill has an output schema, each `returns` path is one the schema declares (or at least allows).', 'Fix the path or declare it in outputSchema.', 'spec: Skill (returns, outputSchema)'),
  // pricing
  rule('pricing-amount', 'error', 'A pricing `amount` is a number ≥ 0.', 'Use 0 for free.', 'spec: Pricing (amount)'),
  rule('pricing-lamports-integer', 'error', 'When `currency` is `lamports`, `amount` is an integer.', 'Round to whole lamports (1 SOL = 1,000,000,000 lamports).', 'spec: Pricing ("integer lamports when currency is lamports"); Payment challenge'),
  rule('pricing-currency', 'warning', '`currency` is one the spec uses (free, USD, lamports), and `free` goes with amount 0.', 'Use one of those currencies; a free skill has amount 0.', 'spec: Pricing (currency); DECISIONS: Paid calls'),
  rule('pricing-network', 'warning', '`network` has the form `<chain>` (main network) or `<chain>-devnet` (test network); a price in lamports names its network.', 'Use e.g. `solana` or `solana-devnet`.', 'spec: Pricing (network); Versioning 5'),
  // versioning, with --previous
  rule('version-bump', 'error', 'A skill whose input schema changed since the previous card comes with a new card `version`.', 'Bump `version`; better, add only optional fields or publish a new skill id.', 'spec: Versioning 3'),
  rule('version-bump-output', 'warning', 'A skill whose output schema or `returns` changed since the previous card comes with a new card `version`.', 'Bump `version`.', 'spec: PublicCard (version: bump on any skill contract change)'),
  rule('skill-removed', 'error', 'Every skill id of the previous card is still there.', 'Keep the old skill until its callers have migrated.', 'spec: Versioning 3'),
  rule('previous-card', 'warning', 'The previous card is a JSON object with a `skills` array (otherwise the versioning rules are skipped).', 'Pass the card as it was last published.', 'docs/cards.md'),
]

const BY_ID = new Map(CARD_RULES.map((entry) => [entry.id, entry]))

/** The catalogue entry of a rule id. */
export function cardRule(id: string): CardRule {
  const found = BY_ID.get(id)
  if (!found) throw new Error(`unknown card rule ${id}`)
  return found
}
