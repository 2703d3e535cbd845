import {describe, expect, it} from 'vitest'
import {patchKeeps, sameJson} from '../../src/registry/records.js'
import type {AgentRecord} from '../../src/registry/types.js'

describe('sameJson', () => {
  it('is true exactly when both values serialize to the same JSON text', () => {
    const cases: Array<[unknown, unknown]> = [
      [{a: 1, b: [1, 'x', null, {c: true}]}, {a: 1, b: [1, 'x', null, {c: true}]}],
      [{a: 1, b: 2}, {b: 2, a: 1}], // key order is part of the text
      [[1, 2], {0: 1, 1: 2}],
      [{}, []],
      [null, {}],
      [0, -0],
      ['1', 1],
      [{a: {b: {c: [1]}}}, {a: {b: {c: [2]}}}],
      [{a: 1}, {a: 1, b: 2}],
      [[1], [1, 2]],
      ['é 漢字', 'é 漢字'],
    ]
    for (const [a, b] of cases) expect(sameJson(a, b), JSON.stringify([a, b])).toBe(JSON.stringify(a) === JSON.stringify(b))
  })
})

describe('patchKeeps', () => {
  const agent: AgentRecord = {
    agentId: 'alpha', apiKeyHash: 'a'.repeat(64), pubkey: null, endpoint: null, capabilities: ['x'], agentCard: {name: 'A', tags: ['x']},
    description: 'd', displayName: 'A', ownerClass: 'third-party', brand: null, createdAtMs: 0, lastSeenMs: null, probe: null,
  }
  it('keeps the agent when every set field holds the same JSON', () => {
    expect(patchKeeps(agent, {})).toBe(true)
    expect(patchKeeps(agent, {agentCard: {name: 'A', tags: ['x']}, capabilities: ['x'], displayName: 'A', brand: null, description: 'd'})).toBe(true)
  })
  it('reports a change in any field', () => {
    expect(patchKeeps(agent, {agentCard: {tags: ['x'], name: 'A'}})).toBe(false)
    expect(patchKeeps(agent, {capabilities: ['x', 'y']})).toBe(false)
    expect(patchKeeps(agent, {brand: 'acme'})).toBe(false)
    expect(patchKeeps(agent, {endpoint: 'https://a.example'})).toBe(false)
    expect(patchKeeps(agent, {ownerClass: 'core'})).toBe(false)
  })
})
