/**
 * The numbers and patterns of the card rules, named once. spec:
 * registry-and-agent-contract.md, PublicCard, Skill, Pricing, DiscoveryCard,
 * Limits; schemas/skill.schema.json repeats the id pattern (a test keeps the
 * two in step).
 */

/** spec Skill: "kebab-case, stable; the path segment in POST /v1/<id>". */
export const SKILL_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/
export const SKILL_ID_MAX_LENGTH = 64

/** spec Skill: examples, "2 to 4". */
export const MIN_EXAMPLES = 2
export const MAX_EXAMPLES = 4

/** spec PublicCard "keep under 500 chars"; DiscoveryCard and Limits "≤ 500" (the registry refuses more on a push). */
export const MAX_DESCRIPTION_CHARS = 500

/** spec Pricing: "values used". */
export const KNOWN_CURRENCIES = ['free', 'USD', 'lamports'] as const

/** spec Pricing: `<chain>` for the main network, `<chain>-devnet` for the test network. */
export const NETWORK_PATTERN = /^[a-z][a-z0-9]*(-devnet)?$/

/** Host names an `http://` card url may use without an error (the author's own machine). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const

/**
 * One step of a `returns` path: a name (no dot, bracket or white space)
 * followed by any number of `[<index>]`. Steps are joined by dots.
 */
export const RETURNS_PATH_PATTERN = /^[^.[\]\s]+(\[\d+\])*(\.[^.[\]\s]+(\[\d+\])*)*$/

/** How deep the output-schema walk of a `returns` path follows `$ref`s and combinators. */
export const MAX_SCHEMA_WALK_DEPTH = 32

/** Longest card value quoted in a message. */
export const QUOTE_MAX_CHARS = 60
