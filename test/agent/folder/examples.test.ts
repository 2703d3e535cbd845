/**
 * The folders in examples/ are what people copy: each loads, its card passes
 * `mesh card lint` without a finding, and each literal JSON example of a
 * skill is a valid input whose answer fits the output schema and carries
 * every `returns` path (what the registry's card_match probe checks).
 */
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {lintCard} from '../../../src/agent/card-lint/index.js'
import {loadAgentFolder} from '../../../src/agent/folder/load.js'
import {createInputCompiler} from '../../../src/agent/kit/input-validator.js'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {silentLogger} from '../../../src/lib/log.js'
import {jsonExampleBodies, skillInputSchema} from '../../../src/protocol/agent-card.js'
import {REPO_ROOT} from '../../support/cli.js'

/** The value at a dotted path (`a.b`, `items[0].id`), or undefined. */
function at(value: unknown, path: string): unknown {
  return path
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .reduce<unknown>((inner, key) => (inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>)[key] : undefined), value)
}

describe.each(['echo', 'paid'])('examples/%s', (name) => {
  it('loads, and its card lints clean', async () => {
    const folder = await loadAgentFolder(join(REPO_ROOT, 'examples', name))
    expect(lintCard(folder.card)).toEqual([])
  })

  it('answers each JSON example with the promised fields', async () => {
    const folder = await loadAgentFolder(join(REPO_ROOT, 'examples', name))
    const compile = createInputCompiler()
    for (const skill of folder.card.skills) {
      const bodies = jsonExampleBodies(skill.examples)
      expect(bodies.length).toBeGreaterThan(0)
      // spec Skill: a natural-language ask beside the literal bodies.
      expect(skill.examples!.some((example) => !example.trim().startsWith('{'))).toBe(true)
      const checkInput = compile(`${skill.id}-in`, skillInputSchema(skill)!)
      const checkOutput = compile(`${skill.id}-out`, skill.outputSchema!)
      for (const body of bodies) {
        checkInput(body)
        const ctx: SkillContext = {skill: skill.id, caller: {pubkey: null, ip: '127.0.0.1', audienceBound: false}, credential: null, payment: null, signal: new AbortController().signal, logger: silentLogger}
        const output = await folder.handlers[skill.id](body, ctx)
        checkOutput(output)
        for (const path of skill.returns ?? []) expect(at(output, path) ?? null, `${skill.id} ${JSON.stringify(body)} → ${path}`).not.toBeNull()
      }
    }
  })
})
