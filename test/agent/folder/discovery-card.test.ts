import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {discoveryCardOf} from '../../../src/agent/discovery-card.js'
import {getValidator} from '../../../src/lib/schemas.js'
import type {PublicCard} from '../../../src/protocol/agent-card.js'
import {cardLimitProblem} from '../../../src/protocol/registry.js'
import {REPO_ROOT} from '../../support/cli.js'

const example = async (name: string) => JSON.parse(await readFile(join(REPO_ROOT, 'examples', name, 'agent.json'), 'utf8')) as PublicCard

/** The MeshError discoveryCardOf throws for `card`. */
function refusal(card: PublicCard) {
  try {
    discoveryCardOf(card, {source: 'echo/agent.json'})
  } catch (error) {
    return error as {code: string; message: string; field?: string}
  }
  throw new Error('expected discoveryCardOf to refuse the card')
}

describe('discoveryCardOf', () => {
  it('derives the DiscoveryCard of both examples, valid for the registry', async () => {
    for (const name of ['echo', 'paid']) {
      const card = await example(name)
      const discovery = discoveryCardOf(card, {publicUrl: 'http://127.0.0.1:8090'})
      expect(getValidator('discovery-card')(discovery)).toBe(true)
      expect(cardLimitProblem(discovery as never)).toBeNull()
    }
    expect(discoveryCardOf(await example('echo'), {publicUrl: 'https://echo.example.net'})).toEqual({
      name: 'Echo',
      endpoint: 'https://echo.example.net',
      description: (await example('echo')).description,
      category: 'developer.testing',
      tags: ['echo', 'test', 'debug'],
      accepts: ['application/json'],
      produces: ['application/json'],
      protocols: ['http', 'a2a'],
      pricing: {unit: 'request', amount: 0, currency: 'free'},
      availability: {now: true},
      owner_class: 'third-party',
    })
    expect(discoveryCardOf(await example('paid'))).toMatchObject({endpoint: 'https://words.example.com', pricing: {amount: 5000, currency: 'lamports', network: 'solana-devnet'}})
  })

  it('takes brand and contact from the card; availability is {now} alone', async () => {
    const card = {...(await example('echo')), brand: 'acme', contact: {http: 'https://echo.example.com'}, availability: {now: false, sla: '99%'}}
    expect(discoveryCardOf(card)).toMatchObject({brand: 'acme', contact: {http: 'https://echo.example.com'}, availability: {now: false}})
    expect(discoveryCardOf(card).availability).toEqual({now: false})
  })

  it('without top-level tags, uses the union of the skills\' tags in order; none at all: no tags', async () => {
    const {tags: _tags, ...card} = await example('echo')
    const skill = card.skills[0]
    const withSkills = {...card, skills: [{...skill, tags: ['b', 'a']}, {...skill, id: 'two', tags: ['a', 'c']}]} as PublicCard
    expect(discoveryCardOf(withSkills).tags).toEqual(['b', 'a', 'c'])
    const without = {...card, skills: [{...skill, tags: undefined}]} as PublicCard
    expect(discoveryCardOf(without)).not.toHaveProperty('tags')
  })

  it('refuses, never truncates: a description over 500, too many or too long tags, naming the field', async () => {
    const card = await example('echo')
    const long = refusal({...card, description: 'x'.repeat(501)})
    expect(long).toMatchObject({code: 'discovery_card_invalid', field: 'description'})
    expect(long.message).toBe('echo/agent.json: "description" is 501 characters; the registry takes at most 500 (spec Limits, no truncation): shorten it')
    expect(discoveryCardOf({...card, description: 'x'.repeat(500)}).description).toHaveLength(500)

    const many = Array.from({length: 13}, (_, i) => `t${i}`)
    expect(refusal({...card, tags: many})).toMatchObject({field: 'tags', message: expect.stringContaining('13 tags; the registry takes at most 12')})
    const {tags: _tags, ...untagged} = card
    const skillTags = refusal({...untagged, skills: [{...card.skills[0], tags: many}]} as PublicCard)
    expect(skillTags).toMatchObject({field: 'skills[].tags', message: expect.stringContaining('set a top-level "tags"')})
    expect(refusal({...card, tags: ['y'.repeat(51)]})).toMatchObject({field: 'tags', message: expect.stringContaining('51 characters; each tag must be 1 to 50')})
    expect(refusal({...card, tags: 'echo' as never})).toMatchObject({field: 'tags'})
  })

  it('names the PublicCard field behind a DiscoveryCard schema failure, and the size limit', async () => {
    const card = await example('echo')
    expect(refusal({...card, name: 'n'.repeat(101)})).toMatchObject({field: 'name', message: expect.stringContaining('schemas/discovery-card.schema.json')})
    expect(refusal({...card, category: 7 as never})).toMatchObject({field: 'category'})
    expect(refusal({...card, brand: 'b'.repeat(65)})).toMatchObject({field: 'brand'})
    const huge = refusal({...card, contact: Object.fromEntries(Array.from({length: 20}, (_, i) => [`k${i}`, 'https://e.example/' + 'p'.repeat(1000)]))})
    expect(huge).toMatchObject({code: 'discovery_card_invalid', message: expect.stringContaining('bytes serialized; the limit is 16384')})
  })
})
