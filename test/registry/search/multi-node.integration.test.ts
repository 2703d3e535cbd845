/**
 * Search and probes across two registry nodes on one PostgreSQL schema and
 * one NATS server: a card pushed on node A is found by a search on node B,
 * and a probe run by either node shows up in both nodes' results.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {registryNodes, type RegistryNodes} from '../../support/registry-nodes.js'
import {startTestAgent, type TestAgent} from '../../support/test-agent.js'

let cluster: RegistryNodes
let nodes: RegistryNodes['nodes']
let agent: TestAgent

beforeAll(async () => {
  agent = await startTestAgent({name: 'Tide tables', skills: [{id: 'tides', examples: ['Tides at Brest?', '{"port": "brest"}'], returns: ['high', 'low'], reply: (body) => (Object.keys(body as object).length ? {status: 200, body: {high: '06:12', low: '12:30'}} : {status: 400})}]})
  cluster = await registryNodes('search', {allowPrivateEndpoints: true, relay: false})
  nodes = cluster.nodes
  await cluster.start('a')
  await cluster.start('b')
})
afterAll(async () => {
  await cluster.close()
  await agent.close()
})

const call = async (url: string, method: string, body: unknown, token?: string) => {
  const response = await fetch(url, {method, headers: {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})}, body: JSON.stringify(body)})
  return {status: response.status, body: (await response.json()) as Record<string, unknown>}
}

type Hit = {agent_id: string; operational: boolean | null; card_match: string | null; invoke: Array<{skill: string; url: string}>}
const search = async (node: number, prompt: string) =>
  ((await call(`${nodes[node].hosted.url}/v1/search`, 'POST', {prompt})).body.results as Hit[])

/** Polls until `check` passes (events cross NATS asynchronously); fails with the last value after 10 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (check(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('search on two registry nodes', () => {
  it('finds on node B an agent that registered and pushed its card on node A, with probe results', async () => {
    const a = nodes[0].hosted.url
    const registered = await call(`${a}/v1/agents/register`, 'POST', {agent_id: 'tide-agent', capabilities: ['tides'], endpoint: agent.url})
    expect(registered.status).toBe(201)
    const token = (await call(`${a}/v1/agents/token`, 'POST', {agent_id: 'tide-agent', api_key: registered.body.api_key})).body.token as string
    const card = {name: 'Tide tables', description: 'High and low tide times for harbours', category: 'data.tides', tags: ['tides'], availability: {now: true}}
    expect((await call(`${a}/v1/agents/me`, 'PATCH', {agent_card: card}, token)).status).toBe(200)

    const found = await eventually(() => search(1, 'tide times for a harbour'), (hits) => hits[0]?.agent_id === 'tide-agent')
    expect(found[0].agent_id).toBe('tide-agent')

    // The card push triggers a probe (on whichever node gets there first); both nodes show its result.
    for (const node of [0, 1]) {
      const [hit] = await eventually(() => search(node, 'tides'), (hits) => hits[0]?.operational === true)
      expect(hit).toMatchObject({operational: true, card_match: '2/2', invoke: [{skill: 'tides', url: `${agent.url}/v1/tides`}]})
    }
  })
})
