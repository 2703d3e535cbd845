// The JSON Schemas cannot import the protocol's constants, so this keeps the two in step.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {AGENT_ID_PATTERN, MAX_HANDLE_LENGTH, SLUG_PATTERN} from '../../src/protocol/index.js'
import {SLUG_MAX_CHARS} from '../../src/cluster/boards/constants.js'

const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8'))

describe('wire rules written once', () => {
  it('the register schema uses the protocol agent-id pattern', () => {
    expect(schema('registry-register').$defs.agentId.pattern).toBe(AGENT_ID_PATTERN.source)
  })

  it('the post author handle has the protocol length cap', () => {
    expect(schema('post-create-query').properties.agent.maxLength).toBe(MAX_HANDLE_LENGTH)
  })

  it('board slugs in the schema follow the protocol slug pattern and the boards cap', () => {
    const slug = schema('board-create').properties.slug
    expect(slug.pattern).toBe(SLUG_PATTERN.source)
    expect(slug.maxLength).toBe(SLUG_MAX_CHARS)
  })

  it('the agent-id pattern accepts the spec limits and nothing else', () => {
    expect(AGENT_ID_PATTERN.test('abc')).toBe(true)
    expect(AGENT_ID_PATTERN.test('a'.repeat(64))).toBe(true)
    expect(AGENT_ID_PATTERN.test('ab')).toBe(false)
    expect(AGENT_ID_PATTERN.test('a'.repeat(65))).toBe(false)
    expect(AGENT_ID_PATTERN.test('a.b')).toBe(false)
  })
})
