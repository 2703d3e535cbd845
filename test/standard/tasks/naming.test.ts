import {describe, expect, it} from 'vitest'
import {SLUG} from '../../../src/standard/constants.js'
import {assertSlug, prefixCandidates, resolvePrefixes, slugify} from '../../../src/standard/tasks/index.js'

describe('slugify', () => {
  it('lowercases, folds accents and joins words with one hyphen', () => {
    expect(slugify('Set up CI  &  CD!')).toBe('set-up-ci-cd')
    expect(slugify('Créer la page d’accueil')).toBe('creer-la-page-d-accueil')
  })
  it('always yields the standard slug shape', () => {
    for (const title of ['2FA for admins', '!!!', 'x', 'A'.repeat(80), 'word '.repeat(20), '42', 'ünïcödé ☃ only']) {
      expect(slugify(title), title).toMatch(SLUG)
    }
    expect(slugify('2FA for admins')).toBe('task-2fa-for-admins')
    expect(slugify('!!!')).toBe('task')
    expect(slugify('x')).toBe('x-task')
  })
  it('cuts long titles at a word boundary within 32 characters', () => {
    const slug = slugify('Migrate the billing service to the new payment provider')
    expect(slug.length).toBeLessThanOrEqual(32)
    expect(slug).toBe('migrate-the-billing-service-to')
  })
  it('checks a given slug', () => {
    expect(assertSlug('ok-slug')).toBe('ok-slug')
    for (const bad of ['Bad', '1abc', 'a', 'has space', 'a'.repeat(33), 'trailing_']) {
      expect(() => assertSlug(bad), bad).toThrow(expect.objectContaining({code: 'usage_slug_invalid'}))
    }
  })
})

describe('task prefixes', () => {
  it('derives initials first, then leading letters', () => {
    expect(prefixCandidates('git-manager').slice(0, 3)).toEqual(['GM', 'G', 'GI'])
    expect(prefixCandidates('deploy').slice(0, 4)).toEqual(['D', 'DE', 'DEP', 'DEPL'])
    expect(prefixCandidates('42')[0]).toBe('M')
    for (const candidate of prefixCandidates('a-b-c-d-e-f')) expect(candidate).toMatch(/^[A-Z]{1,4}$/)
  })
  it('makes prefixes unique across modules in cluster.yaml order', () => {
    const prefixes = resolvePrefixes([{id: 'deploy'}, {id: 'docs'}, {id: 'design'}, {id: 'general'}])
    expect(Object.fromEntries(prefixes)).toEqual({deploy: 'D', docs: 'DO', design: 'DE', general: 'G'})
  })
  it('honours task_prefix, then the prefix existing files use, before deriving', () => {
    const modules = [{id: 'api', task_prefix: 'X'}, {id: 'auth'}, {id: 'app'}]
    const prefixes = resolvePrefixes(modules, new Map([['app', 'A']]))
    expect(Object.fromEntries(prefixes)).toEqual({api: 'X', app: 'A', auth: 'AU'})
  })
  it('refuses a malformed or duplicated task_prefix', () => {
    expect(() => resolvePrefixes([{id: 'api', task_prefix: 'api'}])).toThrow(expect.objectContaining({code: 'task_prefix_invalid'}))
    expect(() => resolvePrefixes([{id: 'a1', task_prefix: 'A'}, {id: 'a2', task_prefix: 'A'}])).toThrow(expect.objectContaining({code: 'task_prefix_duplicate'}))
  })
})
