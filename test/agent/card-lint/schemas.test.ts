// schemas/{public-card,skill,pricing,payment-challenge}.schema.json: the $refs between them resolve in the one
// Ajv of src/lib/schemas.ts, and the card-lint constants say what the schemas say.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN, MAX_EXAMPLES, MIN_EXAMPLES} from '../../../src/agent/card-lint/constants.js'
import {getValidator} from '../../../src/lib/schemas.js'
import {X402_VERSION, type PaymentChallengeBody} from '../../../src/protocol/agent-card.js'
import {goodCard} from './fixtures.js'

const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../../schemas/${name}.schema.json`, import.meta.url), 'utf8'))

describe('skill and pricing schemas', () => {
  it('public-card takes its skills and pricing from skill.schema.json and pricing.schema.json', () => {
    const card = schema('public-card')
    expect(card.properties.skills.items.$ref).toBe('https://mesh.dev/schemas/skill.schema.json')
    expect(card.properties.pricing.$ref).toBe('https://mesh.dev/schemas/pricing.schema.json')
    // discovery-card refers to public-card#/$defs/pricing: still the same schema.
    expect(card.$defs.pricing.$ref).toBe('https://mesh.dev/schemas/pricing.schema.json')
  })

  it('a card, a skill and a pricing validate on their own and through the card', () => {
    const card = goodCard()
    expect(getValidator('public-card')(card)).toBe(true)
    expect(getValidator('skill')(card.skills[0])).toBe(true)
    expect(getValidator('pricing')(card.pricing)).toBe(true)
    expect(getValidator('discovery-card')({name: 'x', pricing: card.pricing})).toBe(true)
  })

  it('a bad skill or pricing fails the card through the $ref', () => {
    const validate = getValidator('public-card')
    const card = goodCard()
    delete card.skills[1].name
    expect(validate(card)).toBe(false)
    expect(validate.errors?.[0]).toMatchObject({instancePath: '/skills/1', keyword: 'required'})
    const priced = goodCard()
    priced.skills[1].pricing.amount = -1
    expect(validate(priced)).toBe(false)
    expect(validate.errors?.[0]).toMatchObject({instancePath: '/skills/1/pricing/amount'})
    expect(getValidator('discovery-card')({pricing: {unit: 'request', currency: 'free'}})).toBe(false)
  })

  it('the skill id pattern, its cap and the examples bounds are the ones lintCard uses', () => {
    const skill = schema('skill')
    expect(skill.properties.id.pattern).toBe(SKILL_ID_PATTERN.source)
    expect(skill.properties.id.maxLength).toBe(SKILL_ID_MAX_LENGTH)
    expect(skill.properties.examples.minItems).toBe(MIN_EXAMPLES)
    expect(skill.properties.examples.maxItems).toBe(MAX_EXAMPLES)
  })
})

describe('payment-challenge schema', () => {
  const body = (): PaymentChallengeBody => ({
    x402Version: X402_VERSION,
    accepts: [
      {
        scheme: 'exact',
        network: 'solana-devnet',
        resource: '/v1/translate-text',
        payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
        asset: 'SOL',
        lamports: '5000',
        nonce: 'n_4f1c2a',
        chainPayUrl: 'solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin?amount=0.000005&memo=n_4f1c2a&label=Translator',
      },
    ],
    hint: 'Pay 5000 lamports to the address with the nonce as memo, then retry with X-Payment-Proof.',
  })
  const validate = getValidator('payment-challenge')

  it('accepts the body the kit sends (the PaymentChallengeBody type)', () => {
    expect(validate(body())).toBe(true)
  })

  it('refuses a wrong version, scheme, a number of lamports, an empty accepts and a missing field', () => {
    const cases: Array<(b: any) => void> = [
      (b) => (b.x402Version = 2),
      (b) => (b.accepts[0].scheme = 'upto'),
      (b) => (b.accepts[0].lamports = 5000),
      (b) => (b.accepts[0].lamports = '5e3'),
      (b) => (b.accepts[0].lamports = '-1'),
      (b) => (b.accepts = []),
      (b) => delete b.accepts[0].nonce,
      (b) => delete b.hint,
      (b) => (b.accepts[0].resource = 'v1/x'),
    ]
    for (const change of cases) {
      const b = body()
      change(b)
      expect(validate(b), change.toString()).toBe(false)
    }
  })

  it('allows extra keys (x402 clients add their own)', () => {
    expect(validate({...body(), error: 'payment required', accepts: [{...body().accepts[0], maxTimeoutSeconds: 600}]})).toBe(true)
  })
})
