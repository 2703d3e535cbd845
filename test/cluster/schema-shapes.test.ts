import {describe, expect, it} from 'vitest'
import {assertShaped, PROPS_SHAPES, TITLE_SHAPE} from '../../src/cluster/schema-shapes.js'

/** The refusal assertShaped throws, as {code, field, message}. */
function refusal(run: () => unknown) {
  try {
    run()
  } catch (error) {
    const {code, field, message} = error as {code: string; field: string; message: string}
    return {code, field, message}
  }
  throw new Error('no refusal')
}

describe('assertShaped', () => {
  it('says what a field must look like instead of quoting its pattern', () => {
    const board = (body: unknown) => refusal(() => assertShaped('board-create', body, {...PROPS_SHAPES, title: TITLE_SHAPE, slug: 'slug sentence'}))
    expect(board({title: '   '})).toEqual({code: 'invalid_body', field: 'title', message: TITLE_SHAPE})
    expect(board({title: 'x'.repeat(201)})).toEqual({code: 'invalid_body', field: 'title', message: TITLE_SHAPE})
    expect(board({title: 't', slug: 'Lift_Offers'})).toEqual({code: 'invalid_body', field: 'slug', message: 'slug sentence'})
    expect(board({title: 't', props: {lang: 'english!'}})).toEqual({code: 'invalid_body', field: 'props.lang', message: PROPS_SHAPES['props.lang']})
    for (const {message} of [board({title: '   '}), board({title: 't', slug: 'A'})]) expect(message).not.toMatch(/pattern|\\S|\^/)
  })

  it('keeps the schema message where no sentence is given, and passes valid input through', () => {
    expect(refusal(() => assertShaped('cluster-create', {persist: 'yes'}, PROPS_SHAPES))).toEqual({code: 'invalid_body', field: 'persist', message: 'persist: must be boolean'})
    expect(assertShaped('cluster-create', {name: 'n', props: {lang: 'pt-BR'}}, PROPS_SHAPES)).toEqual({name: 'n', props: {lang: 'pt-BR'}})
  })

  it('names a repeated query parameter, and only for queries', () => {
    expect(refusal(() => assertShaped('post-create-query', {agent: ['a', 'b']}, {}, 'invalid_query'))).toEqual({code: 'invalid_query', field: 'agent', message: 'agent is given more than once'})
    expect(refusal(() => assertShaped('post-create', {title: ['a'], body: 'b', ttl: '24h'}, {})).message).toBe('title: must be string')
  })
})
