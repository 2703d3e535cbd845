/** Shapes of `lintCard`'s results (docs/cards.md). */

export type Severity = 'error' | 'warning'

/** One problem `lintCard` found in a PublicCard. */
export interface Finding {
  severity: Severity
  /** Stable rule id, e.g. `skill-id-kebab` (docs/cards.md lists every one). */
  rule: string
  /** One human sentence, led by the dotted field it is about (`skills[0].id: …`). */
  message: string
  /** JSON pointer (RFC 6901) into the card, `''` for the card itself, e.g. `/skills/0/id`. */
  path: string
}

export interface LintOptions {
  /** The card as published before; enables the versioning rules (spec Versioning 3). */
  previous?: unknown
}

/** A rule of the catalogue: one id, one severity. */
export interface CardRule {
  id: string
  severity: Severity
  /** What the rule checks (one sentence). */
  summary: string
  /** How to fix a finding. */
  fix: string
  /** Where the rule comes from. */
  source: string
}
