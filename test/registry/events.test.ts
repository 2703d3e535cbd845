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
  it('ignores malformed messages on the subject', async () => {
    const h = createHarness()
    h.context.bus.publish('registry.events', new TextEncoder().encode('{"type":"nope"}'))
    h.context.bus.publish('registry.events', new TextEncoder().encode('not json'))
    expect(h.events).toEqual([])
  })
})
