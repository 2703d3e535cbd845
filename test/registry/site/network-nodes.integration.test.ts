/**
 * The network page's live stream across two registry nodes on one
 * PostgreSQL schema and one NATS server: an agent that registers and pushes
 * its card on node A shows up on node B's `/network/events` and graph.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {registryNodes, type RegistryNodes} from '../../support/registry-nodes.js'
import {openEvents} from './network-sse.js'

let cluster: RegistryNodes

beforeAll(async () => {
  cluster = await registryNodes('network', {relay: false})
  await cluster.start('a')
  await cluster.start('b')
})
afterAll(async () => {
  await cluster.close()
})

const call = async (url: string, method: string, body: unknown, token?: string) => {
  const response = await fetch(url, {method, headers: {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})}, body: JSON.stringify(body)})
  return {status: response.status, body: (await response.json()) as Record<string, unknown>}
}

describe('/network on two registry nodes', () => {
  it("streams on node B an agent that registered, came online and pushed its card on node A", async () => {
    const [a, b] = cluster.nodes.map((node) => node.hosted.url)
    const stream = await openEvents(`${b}/network/events`)
    try {
      const registered = await call(`${a}/v1/agents/register`, 'POST', {agent_id: 'tide-agent', capabilities: ['tides']})
      expect(registered.status).toBe(201)
      const token = (await call(`${a}/v1/agents/token`, 'POST', {agent_id: 'tide-agent', api_key: registered.body.api_key})).body.token as string
      const card = {name: 'Tide tables', brand: 'harbour', category: 'data.tides', tags: ['tides']}
      expect((await call(`${a}/v1/agents/me`, 'PATCH', {agent_card: card}, token)).status).toBe(200)
      const events = await stream.waitFor((seen) => seen.some((event) => (event.data as {name?: string}).name === 'Tide tables'), 10_000)
      const ours = events.map((event) => event.data as Record<string, unknown>).filter((data) => data.id === 'tide-agent')
      expect(ours.at(-1)).toMatchObject({id: 'tide-agent', name: 'Tide tables', brand: 'harbour', category: 'data.tides', online: true})
      // Node B reads the agent when the bus tells it of a change: the register may already read as online.
      const online = ours.map((data) => data.online)
      expect(online.length).toBeGreaterThanOrEqual(2)
      expect(online).toEqual([...online.filter((value) => value === false), ...online.filter((value) => value === true)])
      const graph = (await (await fetch(`${b}/network/graph.json`)).json()) as {agents: number; online: number; nodes: Array<{id: string; name: string}>}
      expect(graph).toMatchObject({agents: 1, online: 1, nodes: [{id: 'tide-agent', name: 'Tide tables'}]})
    } finally {
      stream.close()
    }
  })
})
