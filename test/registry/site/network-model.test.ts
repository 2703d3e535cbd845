import {afterEach, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createRegistryEvents} from '../../../src/registry/events.js'
import {createNetworkModel, type NetworkModel, type NetworkNode} from '../../../src/registry/site/network/model.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0)
let models: NetworkModel[] = []
afterEach(async () => {
  for (const model of models.splice(0)) await model.close()
})

async function setup(resyncMs = 0) {
  const store = createMemoryRegistryStore()
  const bus = createLocalBus()
  const events = createRegistryEvents({bus, clock: () => NOW, logger: silentLogger})
  const add = async (id: string, card?: Record<string, unknown>, seen = true) => {
    await store.createAgent({agentId: id, apiKeyHash: '0'.repeat(64), pubkey: null, endpoint: null, capabilities: [], createdAtMs: NOW})
    if (card) await store.updateAgent(id, {agentCard: card, displayName: typeof card.name === 'string' ? card.name : null, brand: typeof card.brand === 'string' ? card.brand : null})
    if (seen) await store.touchAgent(id, NOW - 1000)
  }
  const model = createNetworkModel({store, events, bus, clock: () => NOW, logger: silentLogger, resyncMs})
  models.push(model)
  const changes: NetworkNode[] = []
  model.onChange((node) => changes.push(node))
  return {store, events, add, model, changes}
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('network model', () => {
  it('loads every agent at start, in pages, and counts them', async () => {
    const {add, model} = await setup()
    for (let i = 0; i < 1200; i++) await add(`agent-${String(i).padStart(4, '0')}`, {name: `A ${i}`, brand: `b${i % 3}`}, i % 2 === 0)
    await model.start()
    expect(model.counts()).toEqual({agents: 1200, online: 600})
    expect(model.node('agent-0002')).toEqual({id: 'agent-0002', name: 'A 2', brand: 'b2', category: null, online: true, last_seen: new Date(NOW - 1000).toISOString(), operational: null})
  })

  it('re-reads an agent on registered, card and online, clears online on the sweep without a read, and tells listeners in order', async () => {
    const {add, store, events, model, changes} = await setup()
    await model.start()
    await add('painter', undefined, false)
    events.publish('agent.registered', 'painter')
    await settle()
    await store.updateAgent('painter', {agentCard: {name: 'Painter', category: 'media.image'}, displayName: 'Painter', brand: 'acme'})
    events.publish('agent.card', 'painter')
    await settle()
    await store.touchAgent('painter', NOW)
    events.publish('agent.online', 'painter')
    // The sweep's verdict is applied after the online read queued before it.
    events.publish('agent.offline', 'painter')
    await settle()
    expect(changes.map((node) => [node.name, node.brand, node.category, node.online])).toEqual([
      ['painter', null, null, false],
      ['Painter', 'acme', 'media.image', false],
      ['Painter', 'acme', 'media.image', true],
      ['Painter', 'acme', 'media.image', false],
    ])
    expect(JSON.parse(model.graphJson())).toMatchObject({agents: 1, online: 0, nodes: [{id: 'painter', name: 'Painter', online: false}]})
  })

  it('heals a lost event with its periodic re-read, and stops following events once closed', async () => {
    const {add, events, model, changes} = await setup(30)
    await model.start()
    await add('quiet', {name: 'Quiet'}) // no event published: the bus lost it
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(model.node('quiet')).toMatchObject({name: 'Quiet', online: true})
    expect(changes.map((node) => node.id)).toContain('quiet')
    await model.close()
    const before = changes.length
    await add('late', {name: 'Late'})
    events.publish('agent.registered', 'late')
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(model.node('late')).toBeNull()
    expect(changes).toHaveLength(before)
  })
})
