// lintCard's skill-schema-invalid refuses exactly the input schemas createAgent refuses (src/agent/kit/input-validator.ts).
import {describe, expect, it} from 'vitest'
import {compileSkillSchema} from '../../../src/agent/card-lint/json-schema.js'
import {createInputCompiler} from '../../../src/agent/kit/input-validator.js'

const schemas: Array<Record<string, unknown>> = [
  {type: 'object', properties: {text: {type: 'string', maxLength: 10}}},
  {$schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: {a: {type: 'string'}}, properties: {a: {$ref: '#/definitions/a'}}},
  {type: ['string', 'number']},
  {type: 'object', 'x-unknown-keyword': true, properties: {when: {type: 'string', format: 'date-time'}}},
  {$id: 'https://agent.example/schemas/in.json', type: 'object'},
  {type: 'objekt'},
  {$ref: '#/$defs/missing'},
  {type: 'object', required: 'text'},
  {items: [{type: 'string'}]},
  {type: 'string', pattern: '('},
]

describe('input schemas: lint and the kit agree', () => {
  for (const schema of schemas) {
    it(JSON.stringify(schema), () => {
      let kitRefuses = false
      try {
        createInputCompiler()('skill', schema)
      } catch {
        kitRefuses = true
      }
      expect('error' in compileSkillSchema(schema)).toBe(kitRefuses)
    })
  }

  it('the same $id in two skills compiles twice', () => {
    const schema = {$id: 'https://agent.example/schemas/same.json', type: 'object'}
    expect('validate' in compileSkillSchema(schema)).toBe(true)
    expect('validate' in compileSkillSchema({...schema})).toBe(true)
  })
})
