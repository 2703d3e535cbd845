// The JSON Schemas cannot import src/protocol/team.ts, so this keeps the CLI's checks and the daemon's in step.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {MEMBER_ACCESS_LEVELS, MEMBER_EFFORTS, MEMBER_EXPOSURES, MEMBER_ID_PATTERN} from '../../src/protocol/team.js'

const schema = (name: string) => JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8'))

describe('team-member rules written once', () => {
  it('the create schema uses the protocol id pattern, exposures and efforts', () => {
    const {properties} = schema('daemon-team-create')
    expect(properties.id.pattern).toBe(MEMBER_ID_PATTERN.source)
    expect(properties.exposure.enum).toEqual([...MEMBER_EXPOSURES])
    expect(properties.effort.enum).toEqual([...MEMBER_EFFORTS])
  })

  it('the patch schema takes the same efforts (or null) and exposures', () => {
    const {properties} = schema('daemon-team-patch')
    expect(properties.effort.enum).toEqual([...MEMBER_EFFORTS, null])
    expect(properties.exposure.enum).toEqual([...MEMBER_EXPOSURES])
  })

  it('the list schema takes the access levels (or null: a refused entry), lowest first (issue 19)', () => {
    expect(schema('daemon-team-list').properties.members.items.properties.access.enum).toEqual([...MEMBER_ACCESS_LEVELS, null])
    expect([...MEMBER_ACCESS_LEVELS]).toEqual(['read', 'edit', 'full'])
  })

  it('the id pattern takes 2 to 32 characters starting with a letter, nothing that could leave team/', () => {
    for (const ok of ['ab', 'git-manager', 'a'.repeat(32), 'm-2']) expect(MEMBER_ID_PATTERN.test(ok), ok).toBe(true)
    for (const bad of ['a', 'a'.repeat(33), '..', 'Dev', '2nd', 'a/b', 'a.b', '%2e%2e']) expect(MEMBER_ID_PATTERN.test(bad), bad).toBe(false)
  })
})
