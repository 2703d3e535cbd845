import {describe, expect, it} from 'vitest'
import {MeshError} from '../../../src/lib/errors.js'
import {parseSearchRequest} from '../../../src/registry/search/request.js'

function refusal(body: unknown): MeshError {
  try {
    parseSearchRequest(body)
  } catch (error) {
    expect(error).toBeInstanceOf(MeshError)
    return error as MeshError
  }
  throw new Error('expected a 400')
}

describe('parseSearchRequest', () => {
  it('applies defaults', () => {
    expect(parseSearchRequest({prompt: 'draw a cat'})).toEqual({
      prompt: 'draw a cat',
      filters: {operationalOnly: false, limit: 10, accepts: [], produces: []},
      ignoredKeys: [],
    })
  })

  it('reads filters nested or at the top level, nested winning', () => {
    expect(parseSearchRequest({prompt: 'x', filters: {operational_only: true, limit: 5}}).filters).toMatchObject({operationalOnly: true, limit: 5})
    expect(parseSearchRequest({prompt: 'x', operational_only: true, limit: 3}).filters).toMatchObject({operationalOnly: true, limit: 3})
    expect(parseSearchRequest({prompt: 'x', limit: 3, filters: {limit: 7}}).filters.limit).toBe(7)
  })

  it('caps the limit at 50', () => {
    expect(parseSearchRequest({prompt: 'x', limit: 500}).filters.limit).toBe(50)
  })

  it('accepts one media type or a list, normalised', () => {
    const parsed = parseSearchRequest({prompt: 'x', accepts: 'Text/Plain; charset=utf-8', filters: {produces: ['image/PNG', 'image/png', 'image/*']}})
    expect(parsed.filters.accepts).toEqual(['text/plain'])
    expect(parsed.filters.produces).toEqual(['image/png', 'image/*'])
  })

  it('echoes keys it does not understand', () => {
    const parsed = parseSearchRequest({prompt: 'x', top_k: 3, region: 'eu', filters: {limit: 2, max_price: 0}})
    expect(parsed.ignoredKeys).toEqual(['top_k', 'region', 'filters.max_price'])
  })

  it.each([
    ['missing prompt', {}, 'prompt'],
    ['numeric prompt', {prompt: 42}, 'prompt'],
    ['prompt over 1000 chars', {prompt: 'x'.repeat(1001)}, 'prompt'],
    ['string limit', {prompt: 'x', limit: '5'}, 'limit'],
    ['zero limit', {prompt: 'x', limit: 0}, 'limit'],
    ['fractional limit', {prompt: 'x', limit: 2.5}, 'limit'],
    ['negative nested limit', {prompt: 'x', filters: {limit: -1}}, 'filters.limit'],
    ['string flag', {prompt: 'x', operational_only: 'yes'}, 'operational_only'],
    ['numeric nested flag', {prompt: 'x', filters: {operational_only: 1}}, 'filters.operational_only'],
    ['array filters', {prompt: 'x', filters: []}, 'filters'],
    ['null filters', {prompt: 'x', filters: null}, 'filters'],
    ['bad media type', {prompt: 'x', accepts: 'not a type'}, 'accepts'],
    ['numeric media type', {prompt: 'x', produces: [1]}, 'produces'],
  ])('refuses a %s with a 400 naming the field', (_label, body, field) => {
    const error = refusal(body)
    expect(error.kind).toBe('invalid')
    expect(error.code).toBe('invalid_body')
    expect(error.field).toBe(field)
  })
})
