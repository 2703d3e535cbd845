/**
 * `lintCard`: checks a PublicCard against the spec (registry-and-agent-
 * contract.md, PublicCard, Skill, Pricing, Versioning) and returns findings.
 * Pure: no I/O, no clock; the same card always gives the same findings.
 * Every rule is listed in docs/cards.md and in CARD_RULES.
 */
import {checkCardDescription, checkUrl} from './card.js'
import {Findings, isObject} from './collector.js'
import {checkPricing} from './pricing.js'
import {schemaFindings} from './schema.js'
import {checkSkill, checkSkillIds} from './skills.js'
import type {Finding, LintOptions} from './types.js'
import {checkVersioning} from './versioning.js'

/**
 * Lints a PublicCard (any JSON value). Findings come schema first, then in
 * the card's order; a value a precise rule reported is not reported again by
 * `card-schema`. Unknown keys are ignored (spec PublicCard).
 */
export function lintCard(card: unknown, options: LintOptions = {}): Finding[] {
  const out = new Findings()
  if (!isObject(card)) return [{severity: 'error', rule: 'card-schema', message: '$: the card is not a JSON object', path: ''}]
  checkUrl(card.url, out)
  checkCardDescription(card.description, out)
  checkPricing(card.pricing, '/pricing', out)
  if (Array.isArray(card.skills)) {
    checkSkillIds(card.skills, out)
    card.skills.forEach((skill, index) => {
      if (isObject(skill)) checkSkill(skill, index, card.pricing, out)
    })
  }
  if (options.previous !== undefined) checkVersioning(card, options.previous, out)
  return [...schemaFindings(card, (path) => out.has(path)), ...out.list]
}
