import {describe, expect, it} from 'vitest'
import {createHarness} from './harness.js'

describe('registry events', () => {
  it('publishes registered, online, card and (from the sweep) offline, once each', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    const token = await h.token('alpha', api_key)
    await h.token('alpha', api_key)
    await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: {name: 'A'}})
    expect(h.events.map((e) => e.type)).toEqual(['agent.registered', 'agent.online', 'agent.card'])
    expect(h.events[0]).toEqual({type: 'agent.registered', agent_id: 'alpha', at: new Date(h.now()).toISOString()})
    h.advance(4 * 60_000)
    expect(await h.registry.sweep()).toEqual([])
    h.advance(60_000)
    expect(await h.registry.sweep()).toEqual(['alpha'])
    expect(await h.registry.sweep()).toEqual([])
    expect(h.events.at(-1)).toMatchObject({type: 'agent.offline', agent_id: 'alpha'})
    // Coming back is a new online transition.
    await h.token('alpha', api_key)
    expect(h.events.at(-1)).toMatchObject({type: 'agent.online'})
  })
  it('announces a card push only when it changed the stored agent; a token call only when coming online', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    const card = {name: 'A', description: 'Same every beat', tags: ['x'], pricing: {unit: 'request', amount: 0, currency: 'free'}}
    const beat = async (body: Record<string, unknown>) => {
      const token = await h.token('alpha', api_key)
      const res = await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send(body)
      expect(res.status).toBe(200)
      return res.body
    }
    expect(await beat({description: card.description, capabilities: card.tags, agent_card: card})).toMatchObject({display_name: 'A', capabilities: ['x']})
    const first = await h.store.getAgent('alpha')
    expect(h.events.map((e) => e.type)).toEqual(['agent.registered', 'agent.online', 'agent.card'])
    h.advance(60_000)
    // The heartbeat repeats its card: nothing is written or announced, the answer is the same.
    expect(await beat({description: card.description, capabilities: card.tags, agent_card: structuredClone(card)})).toEqual({
      ok: true, agent_id: 'alpha', display_name: 'A', owner_class: 'third-party', brand: null, capabilities: ['x'],
    })
    expect(h.events.map((e) => e.type)).toEqual(['agent.registered', 'agent.online', 'agent.card'])
    expect(await h.store.getAgent('alpha')).toEqual({...first, lastSeenMs: h.now()})
    // Any difference, however deep, is a change.
    await beat({agent_card: {...card, pricing: {...card.pricing, amount: 1}}})
    expect(h.events.map((e) => e.type)).toEqual(['agent.registered', 'agent.online', 'agent.card', 'agent.card'])
    expect((await h.store.getAgent('alpha'))!.agentCard).toMatchObject({pricing: {amount: 1}})
    await beat({description: 'A new description'})
    expect(h.events.at(-1)).toMatchObject({type: 'agent.card'})
    expect((await h.store.getAgent('alpha'))!.description).toBe('A new description')
    // A state merge that changes nothing is not announced either.
    const token = await h.token('alpha', api_key)
    const before = h.events.length
    const merged = await h.http.post('/v1/agents/me/state').set('authorization', `Bearer ${token}`).send({pricing: {unit: 'request', amount: 1, currency: 'free'}})
    expect(merged.status).toBe(200)
    expect(h.events.length).toBe(before)
  })
  it('ignores malformed messages on the subject', async () => {
    const h = createHarness()
    h.context.bus.publish('registry.events', new TextEncoder().encode('{"type":"nope"}'))
    h.context.bus.publish('registry.events', new TextEncoder().encode('not json'))
    expect(h.events).toEqual([])
  })
})
