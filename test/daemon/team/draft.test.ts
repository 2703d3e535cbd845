import {describe, expect, it} from 'vitest'
import {draftMember, idFromTitle} from '../../../src/daemon/team/draft.js'

const TREE = ['architecture', 'constraints', 'overview', 'product', 'stack']

describe('draftMember', () => {
  it('takes the title from the first sentence and the id from its kebab-case', () => {
    expect(draftMember('Data engineer! Owns the pipelines.', TREE)).toMatchObject({id: 'data-engineer', title: 'Data engineer', exposure: 'internal', context: []})
  })

  it('prefers a "title:" and an "id:" line, and keeps the rest as the prompt', () => {
    const draft = draftMember('title: Release captain\nid: captain\nYou ship releases. Read the stack first.\n', TREE)
    expect(draft).toEqual({id: 'captain', title: 'Release captain', context: ['stack'], exposure: 'internal', prompt: 'You ship releases. Read the stack first.\n'})
  })

  it('ignores an "id:" line that is not a member id', () => {
    expect(draftMember('title: Ops\nid: ../etc\nRuns things.', TREE).id).toBe('ops')
  })

  it('sets exposure external on "external", "exposed" or "expose" as whole words', () => {
    expect(draftMember('Consultant. External advisor.', TREE).exposure).toBe('external')
    expect(draftMember('Consultant. We expose it to clients.', TREE).exposure).toBe('external')
    expect(draftMember('Consultant. Externalities are not our concern.', TREE).exposure).toBe('internal')
  })

  it.each([
    'Consultant. Never expose it.',
    'Consultant; do not expose this member to partners.',
    "Consultant. Don't expose it.",
    'Consultant, not exposed to anyone.',
    'Consultant that must never be exposed externally.',
    'Consultant. It should not be external.',
    'Consultant. Internal only.',
    'Consultant for internal use; exposed later maybe.',
  ])('reads a negation or "internal" as internal: %s', (text) => {
    expect(draftMember(text, TREE).exposure).toBe('internal')
  })

  it('keeps a negation to its own clause', () => {
    expect(draftMember('Helpdesk. Not a developer, exposed to partners.', TREE).exposure).toBe('external')
    expect(draftMember('Helpdesk. Answers questions nobody else can; exposed to partners.', TREE).exposure).toBe('external')
  })

  it('names context nodes as whole words only, in the tree order', () => {
    expect(draftMember('Guide. Knows the Product and the overview; not a stacked thing.', TREE).context).toEqual(['overview', 'product'])
  })

  it('cuts the id to 32 characters, prefixes a leading digit and falls back to "member"', () => {
    expect(idFromTitle('3D modelling expert')).toBe('m-3d-modelling-expert')
    const long = idFromTitle('An extremely long title for a member of the team indeed')
    expect(long.length).toBeLessThanOrEqual(32)
    expect(long).toMatch(/^[a-z][a-z0-9-]{1,31}$/)
    expect(long.endsWith('-')).toBe(false)
    expect(idFromTitle('!!!')).toBe('member')
    expect(idFromTitle('Ünïcodé Café')).toBe('unicode-cafe')
  })

  it('gives the same draft for the same text (no model)', () => {
    const text = 'Reviewer. Checks architecture and constraints.'
    expect(draftMember(text, TREE)).toEqual(draftMember(text, TREE))
  })
})
