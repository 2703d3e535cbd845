/** `lintCard` and its rule catalogue: the checks behind `mesh card lint` (docs/cards.md). */
export {lintCard} from './lint.js'
export {CARD_RULES, cardRule} from './rules.js'
export type {CardRule, Finding, LintOptions, Severity} from './types.js'
