import {describe, expect, it} from 'vitest'
import {CARD_RULES, lintCard, type Finding} from '../../../src/agent/card-lint/index.js'
import {goodCard} from './fixtures.js'

const rules = (findings: Finding[]) => findings.map((finding) => finding.rule)
/** The findings of one rule for a card changed by `change`. */
function only(rule: string, change: (card: Record<string, any>) => void, previous?: unknown): Finding[] {
  const card = goodCard()
  change(card)
  return lintCard(card, previous === undefined ? {} : {previous}).filter((finding) => finding.rule === rule)
}

describe('lintCard: a good card', () => {
  it('has no findings, and unknown keys are ignored', () => {
    expect(lintCard(goodCard())).toEqual([])
  })

  it('gives each finding the severity of its rule in the catalogue', () => {
    const card = goodCard()
    card.url = 'ftp://x'
    card.skills[0].examples = ['one']
    for (const finding of lintCard(card)) expect(finding.severity).toBe(CARD_RULES.find((rule) => rule.id === finding.rule)?.severity)
  })

  it('is the same for the same card (pure)', () => {
    const card = goodCard()
    card.skills[0].id = 'Bad Id'
    expect(lintCard(card)).toEqual(lintCard(card))
  })
})

describe('card-schema', () => {
  it('reports a value that is not an object', () => {
    for (const value of [null, [], 'card', 3]) expect(lintCard(value)).toEqual([{severity: 'error', rule: 'card-schema', message: '$: the card is not a JSON object', path: ''}])
  })

  it('names each missing required field of PublicCard, Skill and Pricing by its pointer', () => {
    const card = goodCard()
    delete card.name
    delete card.availability
    delete card.skills[0].examples
    delete card.pricing.unit
    const findings = lintCard(card).filter((finding) => finding.rule === 'card-schema')
    expect(findings.map((finding) => finding.path).sort()).toEqual(['/availability', '/name', '/pricing/unit', '/skills/0/examples'])
    expect(findings.every((finding) => finding.severity === 'error')).toBe(true)
    expect(findings.find((finding) => finding.path === '/name')?.message).toMatch(/missing required key "name"/)
  })

  it('reports a wrong type once per path', () => {
    const findings = only('card-schema', (card) => (card.availability.now = 'yes'))
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({path: '/availability/now', message: 'availability.now: must be boolean'})
  })

  it('leaves to the precise rule what it reports (no second finding on the same value)', () => {
    const findings = lintCard({...goodCard(), url: 'ftp://example.com'})
    expect(rules(findings)).toEqual(['card-url-https'])
  })
})

describe('card-url-https and card-url-localhost', () => {
  it('an https url is fine', () => {
    expect(only('card-url-https', (card) => (card.url = 'https://a.example:8443/agent'))).toEqual([])
  })
  it('http elsewhere, another scheme or no URL at all is an error', () => {
    for (const url of ['http://agent.example', 'ftp://agent.example', 'not a url']) {
      const findings = only('card-url-https', (card) => (card.url = url))
      expect(findings, url).toHaveLength(1)
      expect(findings[0]).toMatchObject({severity: 'error', path: '/url'})
    }
  })
  it('http on localhost or a loopback address is a warning', () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:3000/a', 'http://[::1]:80']) {
      const card = goodCard()
      card.url = url
      expect(lintCard(card), url).toEqual([expect.objectContaining({rule: 'card-url-localhost', severity: 'warning', path: '/url'})])
    }
  })
})

describe('card-description-length', () => {
  it('500 characters pass, 501 are an error (code points, not UTF-16 units)', () => {
    expect(only('card-description-length', (card) => (card.description = '😀'.repeat(500)))).toEqual([])
    const findings = only('card-description-length', (card) => (card.description = 'a'.repeat(501)))
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/description', message: expect.stringContaining('501 characters')})])
  })
})

describe('skill-id-kebab', () => {
  it('accepts kebab-case ids', () => {
    for (const id of ['a', 'translate', 'text-2-speech', 'v2']) expect(only('skill-id-kebab', (card) => (card.skills[0].id = id)), id).toEqual([])
  })
  it('refuses anything else, once (not also as card-schema)', () => {
    for (const id of ['Translate', 'snake_case', 'a--b', '-a', 'a-', 'has space', 'a'.repeat(65)]) {
      const card = goodCard()
      card.skills[0].id = id
      const findings = lintCard(card)
      expect(rules(findings), id).toEqual(['skill-id-kebab'])
      expect(findings[0]).toMatchObject({severity: 'error', path: '/skills/0/id'})
    }
  })
})

describe('skill-id-unique', () => {
  it('reports the second skill with an id already used', () => {
    const findings = only('skill-id-unique', (card) => (card.skills[1].id = 'translate-text'))
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/skills/1/id', message: expect.stringContaining('skills[0]')})])
  })
})

describe('skill-examples-count', () => {
  it('2 to 4 examples pass', () => {
    expect(only('skill-examples-count', (card) => card.skills[0].examples.push('{"text": "a", "target": "de"}', 'Say hi in German.'))).toEqual([])
  })
  it('1 or 5 are an error, reported once', () => {
    for (const examples of [['{"text": "a", "target": "fr"}'], ['Say hi.', '{"text": "a", "target": "fr"}', 'b c', 'd e', 'f g']]) {
      const card = goodCard()
      card.skills[0].examples = examples
      const findings = lintCard(card)
      expect(findings.filter((finding) => finding.path === '/skills/0/examples').map((finding) => finding.rule)).toContain('skill-examples-count')
      expect(findings.some((finding) => finding.rule === 'card-schema')).toBe(false)
    }
  })
})

describe('skill-example-json and skill-example-ask', () => {
  it('a skill without a literal JSON body is an error', () => {
    const findings = only('skill-example-json', (card) => (card.skills[0].examples = ['Translate hi to French.', 'Translate bye to German.']))
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/skills/0/examples'})])
  })
  it('a JSON array or a broken JSON object is not a body', () => {
    expect(only('skill-example-json', (card) => (card.skills[0].examples = ['Say hi please.', '[1, 2]', '{"text": ']))).toHaveLength(1)
  })
  it('a skill without a natural-language ask is a warning', () => {
    const findings = only('skill-example-ask', (card) => (card.skills[0].examples = ['{"text": "a", "target": "fr"}', '{"text": "b", "target": "de"}']))
    expect(findings).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/0/examples'})])
  })
  it('a single word or a JSON string is not an ask', () => {
    expect(only('skill-example-ask', (card) => (card.skills[0].examples = ['translate', '"two words"', '{"text": "a", "target": "fr"}']))).toHaveLength(1)
  })
})

describe('skill-example-input', () => {
  it('warns on a JSON example the input schema refuses, naming the field', () => {
    const findings = only('skill-example-input', (card) => card.skills[0].examples.push('{"text": "hi"}', '{"text": 3, "target": "fr"}'))
    expect(findings).toEqual([
      expect.objectContaining({severity: 'warning', path: '/skills/0/examples/2', message: expect.stringContaining('missing required field target')}),
      expect.objectContaining({path: '/skills/0/examples/3', message: expect.stringContaining('text must be string')}),
    ])
  })
  it('uses input_schema when that is the spelling given', () => {
    expect(only('skill-example-input', (card) => (card.skills[1].examples = ['Which language?', '{"words": "hola"}']))).toEqual([
      expect.objectContaining({path: '/skills/1/examples/1'}),
    ])
  })
  it('is silent for a skill with no input schema', () => {
    expect(only('skill-example-input', (card) => delete card.skills[0].inputSchema)).toEqual([])
  })
})

describe('skill-schema-invalid', () => {
  it('reports a schema that does not compile, under the spelling used', () => {
    const findings = only('skill-schema-invalid', (card) => (card.skills[1].input_schema = {type: 'objekt'}))
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/skills/1/input_schema'})])
    expect(only('skill-schema-invalid', (card) => (card.skills[0].outputSchema = {$ref: '#/$defs/missing'}))).toEqual([expect.objectContaining({path: '/skills/0/outputSchema'})])
  })
  it('accepts a schema that names an older draft', () => {
    expect(only('skill-schema-invalid', (card) => (card.skills[0].inputSchema.$schema = 'http://json-schema.org/draft-07/schema#'))).toEqual([])
  })
})

describe('skill-schema-spellings', () => {
  it('both spellings equal: fine; different: a warning on the snake_case one', () => {
    expect(only('skill-schema-spellings', (card) => (card.skills[1].inputSchema = structuredClone(card.skills[1].input_schema)))).toEqual([])
    const findings = only('skill-schema-spellings', (card) => (card.skills[1].inputSchema = {type: 'object'}))
    expect(findings).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/1/input_schema'})])
    expect(only('skill-schema-spellings', (card) => (card.skills[0].output_schema = {type: 'object'}))).toEqual([expect.objectContaining({path: '/skills/0/output_schema'})])
  })
})

describe('the skill-description rule', () => {
  const parts = (description: string, paid = false) => {
    const card = goodCard()
    const skill = card.skills[paid ? 1 : 0]
    skill.description = description
    return lintCard(card)
      .filter((finding) => finding.rule.startsWith('skill-description-'))
      .map((finding) => finding.rule.replace('skill-description-', ''))
  }

  it('warns on each missing part of a bare description', () => {
    expect(parts('Translation.')).toEqual(['when', 'inputs', 'output', 'latency', 'price'])
    expect(parts('Detection.', true)).toEqual(['when', 'inputs', 'output', 'latency', 'price', 'allowance'])
  })
  it('every finding is a warning on the description', () => {
    const card = goodCard()
    card.skills[0].description = 'Translation.'
    for (const finding of lintCard(card)) expect(finding).toMatchObject({severity: 'warning', path: '/skills/0/description'})
  })
  it('when to use', () => {
    for (const text of ['Use it when you need French.', 'Use this to translate.', 'Useful for menus.', 'Whenever you need a translation.']) expect(parts(text), text).not.toContain('when')
  })
  it('inputs and ranges: an input word or an input field name, plus a range; or no input at all', () => {
    expect(parts('Takes text (up to 5,000 characters).')).not.toContain('inputs')
    expect(parts('The target field is one of fr, de.')).not.toContain('inputs')
    expect(parts('Send it text.')).toContain('inputs')
    expect(parts('It takes no input.')).not.toContain('inputs')
  })
  it('output shape', () => {
    for (const text of ['Returns {translation}.', 'Responds with the text.', 'The response holds text.']) expect(parts(text), text).not.toContain('output')
  })
  it('latency', () => {
    for (const text of ['Answers in about 2 s.', 'Takes 300ms.', 'Median latency is low.', 'Answers within a second.']) expect(parts(text), text).not.toContain('latency')
    expect(parts('Takes 3 steps.')).toContain('latency')
  })
  it('price and free allowance: "free" says both for a free skill; a paid skill needs its price and its allowance', () => {
    expect(parts('Free to call.')).not.toContain('price')
    expect(parts('Free to call.', true)).toEqual(expect.arrayContaining(['price']))
    const paid = parts('Costs 5000 lamports per call.', true)
    expect(paid).not.toContain('price')
    expect(paid).toContain('allowance')
    expect(parts('Costs 5000 lamports per call; 10 free calls per day.', true)).not.toContain('allowance')
  })
})

describe('returns-path', () => {
  it('accepts flat dotted paths with indexes', () => {
    expect(only('returns-path', (card) => (card.skills[0].returns = ['a', 'a.b', 'a.b[0].c', 'a.0.b', 'a[0][1]']))).toEqual([])
  })
  it('refuses empty steps, JSONPath, pointers, brackets without an index and spaces', () => {
    const bad = ['a..b', '.a', 'a.', '$.a', '/a/b', 'a[x]', 'a[]', 'a b', ' ']
    const findings = only('returns-path', (card) => (card.skills[0].returns = bad))
    expect(findings.map((finding) => finding.path)).toEqual(bad.map((_, index) => `/skills/0/returns/${index}`))
    expect(findings.every((finding) => finding.severity === 'error')).toBe(true)
  })
})

describe('returns-duplicate', () => {
  it('warns on a path listed twice', () => {
    expect(only('returns-duplicate', (card) => card.skills[0].returns.push('translation'))).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/0/returns/2'})])
  })
})

describe('returns-output-schema', () => {
  const fit = (returns: string[], outputSchema: Record<string, unknown>) =>
    only('returns-output-schema', (card) => Object.assign(card.skills[0], {returns, outputSchema})).map((finding) => finding.message)

  it('passes paths the schema declares, through arrays, $ref, allOf and anyOf', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {type: 'array', items: {$ref: '#/$defs/item'}},
        meta: {allOf: [{type: 'object', properties: {count: {type: 'integer'}}}]},
        either: {anyOf: [{type: 'string'}, {type: 'object', properties: {x: {}}}]},
      },
      $defs: {item: {type: 'object', properties: {id: {type: 'string'}}}},
    }
    expect(fit(['items[0].id', 'items.id', 'items.0.id', 'meta.count', 'either.x'], schema)).toEqual([])
  })
  it('warns on a path the schema forbids (additionalProperties false, a scalar, false)', () => {
    const schema = {type: 'object', additionalProperties: false, properties: {text: {type: 'string'}, never: false}}
    const messages = fit(['other', 'text.length', 'never'], schema)
    expect(messages).toHaveLength(3)
    for (const message of messages) expect(message).toMatch(/cannot be in a response/)
  })
  it('warns on a path the schema does not declare', () => {
    expect(fit(['translated'], {type: 'object', properties: {translation: {type: 'string'}}})).toEqual([expect.stringContaining('is not declared in outputSchema')])
  })
  it('is silent where the schema says nothing (no properties, additionalProperties schema, untyped)', () => {
    expect(fit(['a.b'], {type: 'object'})).toEqual([])
    expect(fit(['a.b'], {type: 'object', additionalProperties: {type: 'object'}})).toEqual([])
    expect(fit(['a.b'], {})).toEqual([])
  })
  it('is silent without an output schema, and reads output_schema too', () => {
    expect(only('returns-output-schema', (card) => (delete card.skills[0].outputSchema, (card.skills[0].returns = ['anything'])))).toEqual([])
    const findings = only('returns-output-schema', (card) => {
      card.skills[0].output_schema = card.skills[0].outputSchema
      delete card.skills[0].outputSchema
      card.skills[0].returns = ['nope']
    })
    expect(findings).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/0/returns/0', message: expect.stringContaining('output_schema')})])
  })
})

describe('pricing rules', () => {
  it('pricing-amount: a negative amount is an error, reported once', () => {
    const card = goodCard()
    card.skills[1].pricing.amount = -5
    const findings = lintCard(card)
    expect(findings.filter((finding) => finding.path === '/skills/1/pricing/amount').map((finding) => finding.rule)).toEqual(['pricing-amount'])
  })
  it('pricing-lamports-integer: lamports are whole', () => {
    expect(only('pricing-lamports-integer', (card) => (card.skills[1].pricing.amount = 2.5))).toEqual([expect.objectContaining({severity: 'error', path: '/skills/1/pricing/amount'})])
    expect(only('pricing-lamports-integer', (card) => (card.pricing = {unit: 'request', amount: 0.5, currency: 'USD'}))).toEqual([])
  })
  it('pricing-currency: an unknown currency, or free with an amount, is a warning', () => {
    expect(only('pricing-currency', (card) => (card.pricing.currency = 'EUR'))).toEqual([expect.objectContaining({severity: 'warning', path: '/pricing/currency'})])
    expect(only('pricing-currency', (card) => (card.pricing.amount = 3))).toEqual([expect.objectContaining({message: expect.stringContaining('"free" with amount 3')})])
    expect(only('pricing-currency', (card) => (card.pricing = {unit: 'request', amount: 1, currency: 'USD'}))).toEqual([])
  })
  it('pricing-network: <chain> or <chain>-devnet; lamports name their network', () => {
    for (const network of ['solana', 'solana-devnet']) expect(only('pricing-network', (card) => (card.skills[1].pricing.network = network))).toEqual([])
    for (const network of ['Solana', 'solana-testnet', 'solana mainnet'])
      expect(only('pricing-network', (card) => (card.skills[1].pricing.network = network)), network).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/1/pricing/network'})])
    expect(only('pricing-network', (card) => delete card.skills[1].pricing.network)).toEqual([expect.objectContaining({path: '/skills/1/pricing'})])
  })
})

describe('versioning, with previous', () => {
  it('the same card is fine', () => {
    expect(lintCard(goodCard(), {previous: goodCard()})).toEqual([])
  })
  it('version-bump: an input schema changed without a new version is an error', () => {
    const findings = only('version-bump', (card) => (card.skills[0].inputSchema.properties.style = {type: 'string'}), goodCard())
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/skills/0/inputSchema', message: expect.stringContaining('"1.2.0"')})])
  })
  it('version-bump: moving between the two spellings with an equal schema is no change; a changed one is', () => {
    expect(
      only('version-bump', (card) => {
        card.skills[1].inputSchema = card.skills[1].input_schema
        delete card.skills[1].input_schema
      }, goodCard()),
    ).toEqual([])
    expect(only('version-bump', (card) => delete card.skills[1].input_schema, goodCard())).toEqual([expect.objectContaining({path: '/skills/1'})])
  })
  it('a changed schema with a changed version is fine', () => {
    const card = goodCard()
    card.skills[0].inputSchema.required = ['text']
    card.version = '1.3.0'
    expect(lintCard(card, {previous: goodCard()})).toEqual([])
  })
  it('version-bump-output: a changed output schema or returns without a new version is a warning', () => {
    expect(only('version-bump-output', (card) => (card.skills[0].returns = ['translation']), goodCard())).toEqual([expect.objectContaining({severity: 'warning', path: '/skills/0'})])
    expect(only('version-bump-output', (card) => (card.skills[0].outputSchema.required = ['translation']), goodCard())).toHaveLength(1)
  })
  it('skill-removed: a skill id of the previous card that is gone is an error, even with a new version', () => {
    const findings = only('skill-removed', (card) => {
      card.skills.pop()
      card.version = '2.0.0'
    }, goodCard())
    expect(findings).toEqual([expect.objectContaining({severity: 'error', path: '/skills', message: expect.stringContaining('"detect-language"')})])
  })
  it('a new skill is fine', () => {
    const previous = goodCard()
    previous.skills.pop()
    expect(lintCard(goodCard(), {previous})).toEqual([])
  })
  it('previous-card: a previous value that is not a card is a warning and skips the rules', () => {
    expect(only('previous-card', () => {}, 'nope')).toEqual([expect.objectContaining({severity: 'warning', path: ''})])
    expect(only('previous-card', () => {}, {skills: 'x'})).toHaveLength(1)
  })
})
