/**
 * PublicCards for agent tests (spec PublicCard, Skill, Pricing): the fields
 * every test card repeats — JSON in and out, plain HTTP, free, available now —
 * with each test's own fields on top. Keys keep the order of the spec's
 * PublicCard table, so a card reads (and serializes) as the literal it replaces.
 */
import type {CardPricing, CardSkill, PublicCard} from '../../src/protocol/agent-card.js'

/** A PublicCard: `fields` replace the defaults whole (and add any other key after them). */
export function publicCard(fields: Partial<PublicCard> = {}): PublicCard {
  return {
    name: 'Test Agent',
    url: 'http://127.0.0.1',
    version: '1.0.0',
    description: 'An agent for tests.',
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    protocols: ['http'],
    pricing: {unit: 'request', amount: 0, currency: 'free'},
    availability: {now: true},
    skills: [],
    ...fields,
  }
}

/** Per-request pricing in lamports on `network` (spec Pricing), for a card or one skill. */
export const lamportsPricing = (amount: number, network = 'solana-devnet'): CardPricing => ({unit: 'request', amount, currency: 'lamports', network})

/** The `{text}` input of an echo skill: one string of 1 to `maxLength` characters. */
export const textInputSchema = (maxLength = 200): Record<string, unknown> => ({
  type: 'object',
  required: ['text'],
  properties: {text: {type: 'string', minLength: 1, maxLength}},
})

/** A free `echo` skill taking `{text}` and returning it; `fields` replace any of its keys. */
export function echoSkill(fields: Partial<CardSkill> = {}): CardSkill {
  return {
    id: 'echo',
    name: 'Echo',
    description: 'Answers the text it was given. Input: text (1 to 200 chars). Output: {text}. Instant, free.',
    examples: ['Echo "hello".', '{"text": "hello"}'],
    inputSchema: textInputSchema(),
    returns: ['text'],
    ...fields,
  }
}
