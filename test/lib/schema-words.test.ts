import {readFileSync, readdirSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {PATTERN_WORDS} from '../../src/lib/schema-words.js'
import {assertValid, describeSchemaError, getValidator, SCHEMAS_DIR} from '../../src/lib/schemas.js'

/** Every `pattern` the schemas hold. */
function schemaPatterns(): Set<string> {
  const found = new Set<string>()
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    const record = node as Record<string, unknown>
    if (typeof record.pattern === 'string') found.add(record.pattern)
    for (const value of Object.values(record)) walk(value)
  }
  for (const file of readdirSync(SCHEMAS_DIR)) if (file.endsWith('.schema.json')) walk(JSON.parse(readFileSync(`${SCHEMAS_DIR}/${file}`, 'utf8')))
  return found
}

describe('schema patterns in words', () => {
  it('has words for every pattern of schemas/, so none reaches a person raw', () => {
    expect([...schemaPatterns()].filter((pattern) => !(pattern in PATTERN_WORDS))).toEqual([])
  })

  it('says what a valid value looks like, with the value given, never "must match pattern"', () => {
    let message = ''
    try {
      assertValid('daemon-chat-send', {member: 'Not A Member', text: 'hi'})
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe('member must be an id: a lowercase letter, then 1 to 31 of a-z, 0-9 and - (e.g. developer); got "Not A Member"')

    const validate = getValidator('daemon-task-create')
    expect(validate({module: 'api', title: 'x', depends_on: ['1bad']})).toBe(false)
    const said = describeSchemaError(validate.errors!.find((error) => error.keyword === 'pattern')!, {depends_on: ['1bad']})
    expect(said).toBe('depends_on[0] must be a task or initiative id: a letter, then 1 to 31 of letters, digits, _ and - (e.g. API12); got "1bad"')
    expect(said).not.toMatch(/pattern|\^\[/)
  })

  it("words a pattern of no schema of ours (an agent's own) without ajv's phrase", () => {
    const error = {keyword: 'pattern', instancePath: '/code', schemaPath: '#/properties/code/pattern', params: {pattern: '^[A-Z]{3}$'}, message: 'must match pattern "^[A-Z]{3}$"'}
    expect(describeSchemaError(error, {code: 'abcd'})).toBe('code must be of the form the pattern ^[A-Z]{3}$ describes; got "abcd"')
  })
})
