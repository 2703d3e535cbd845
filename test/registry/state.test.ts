import {describe, expect, it} from 'vitest'
import {createHarness} from './harness.js'

async function setup() {
  const h = createHarness()
  const {api_key} = await h.register('alpha')
  const token = await h.token('alpha', api_key)
  const auth = {authorization: `Bearer ${token}`}
  await h.http.patch('/v1/agents/me').set(auth).send({agent_card: {name: 'Alpha', tags: ['a'], availability: {now: true}, category: 'x.y', pricing: {unit: 'request', amount: 0, currency: 'free'}}})
  const state = (body: unknown) => h.http.post('/v1/agents/me/state').set(auth).send(body as object)
  return {h, state}
}

describe('POST /v1/agents/me/state', () => {
  it('shallow-merges the allowed keys, drops the others and removes nulls', async () => {
    const {h, state} = await setup()
    const res = await state({availability: {now: false}, latency_p50_ms: 120, geo: ['eu'], name: 'Hijack', owner_class: 'core', category: null})
    expect(res.status).toBe(200)
    expect(res.body.ignored_keys.sort()).toEqual(['name', 'owner_class'])
    expect(res.body.agent_card).toEqual({
      name: 'Alpha',
      tags: ['a'],
      owner_class: 'third-party',
      availability: {now: false},
      pricing: {unit: 'request', amount: 0, currency: 'free'},
      latency_p50_ms: 120,
      geo: ['eu'],
    })
    expect((await h.store.getAgent('alpha'))!.displayName).toBe('Alpha')
  })
  it('keeps capabilities equal to tags', async () => {
    const {h, state} = await setup()
    await state({tags: ['b', 'c']})
    expect((await h.store.getAgent('alpha'))!.capabilities).toEqual(['b', 'c'])
    await state({tags: null})
    expect((await h.store.getAgent('alpha'))!.capabilities).toEqual([])
  })
  it('validates the kept keys with the field named', async () => {
    const {state} = await setup()
    const res = await state({pricing: {unit: 'request', amount: 'lots', currency: 'USD'}})
    expect([res.status, res.body.error.code, res.body.error.field]).toEqual([400, 'invalid_body', 'pricing.amount'])
    const tags = await state({tags: ['x'.repeat(51)]})
    expect(tags.body.error.field).toBe('tags[0]')
  })
  it('checks size and nesting after the merge', async () => {
    const {h, state} = await setup()
    expect((await state({geo: 'x'.repeat(15_000)})).status).toBe(200)
    const over = await state({models: Array.from({length: 20}, () => 'm'.repeat(100))})
    expect([over.status, over.body.error.code]).toEqual([400, 'card_too_large'])
    let deep: unknown = 1
    for (let i = 0; i < 16; i++) deep = [deep]
    const tooDeep = await state({geo: deep})
    expect(tooDeep.body.error.code).toBe('card_too_deep')
    expect((await h.store.getAgent('alpha'))!.agentCard!.models).toBeUndefined()
  })
  it('needs a token and a JSON object', async () => {
    const {h} = await setup()
    expect((await h.http.post('/v1/agents/me/state').send({})).status).toBe(401)
    const {api_key} = await h.register('beta')
    const token = await h.token('beta', api_key)
    const arr = await h.http.post('/agents/me/state').set('authorization', `Bearer ${token}`).set('content-type', 'application/json').send('[1]')
    expect([arr.status, arr.body.error.code]).toEqual([400, 'invalid_body'])
    // An agent with no card yet starts from an empty card.
    const first = await h.http.post('/agents/me/state').set('authorization', `Bearer ${token}`).send({category: 'z'})
    expect(first.body.agent_card).toEqual({category: 'z'})
  })
})
