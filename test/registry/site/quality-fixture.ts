/**
 * A realistic small data set for the site's quality and hostile-input page
 * tests: agents in several brands and categories (most online, one offline,
 * one with a cached PublicCard from a probe), public clusters with `where`,
 * boards (one age-gated) and posts. Everything goes through the real HTTP
 * routes except the probe's result, which is saved straight into the store
 * as the prober would (the probe itself needs a reachable agent and time).
 */
import type {JsonObject} from '../../../src/registry/types.js'
import {echoSkill, lamportsPricing, publicCard} from '../../support/agent-card.js'
import type {SiteServer} from '../../support/site-server.js'

export interface SeededSite {
  /** Online, with a cached PublicCard (skills shown on its page). */
  onlineAgent: string
  /** Was online, swept offline. */
  offlineAgent: string
  /** A word the search finds in `onlineAgent`'s card. */
  query: string
  /** Every agent id, for the network page's expectations. */
  agents: Array<{id: string; name: string}>
  /** A public cluster with a where, boards and posts. */
  cluster: {id: string; name: string; postTitle: string}
  clusters: Array<{id: string; name: string}>
}

const BRANDS = ['acme', 'globex', 'initech']
const CATEGORIES = ['media.image-generation', 'data.search', 'finance.payments']

/** The DiscoveryCard an agent pushes (spec DiscoveryCard). */
export function discoveryCard(i: number, fields: JsonObject = {}): JsonObject {
  return {
    name: `Agent ${i} ${BRANDS[i % BRANDS.length]}`,
    brand: BRANDS[i % BRANDS.length],
    category: CATEGORIES[i % CATEGORIES.length],
    description: `Agent number ${i}: does ${CATEGORIES[i % CATEGORIES.length]} work for callers.`,
    tags: [`tag-${i % 4}`, CATEGORIES[i % CATEGORIES.length].split('.')[1]],
    endpoint: `https://agent-${i}.example/`,
    pricing: i % 2 ? lamportsPricing(5000) : {unit: 'request', amount: 0, currency: 'free'},
    availability: {now: true},
    ...fields,
  } as JsonObject
}

/** The result the prober saves for an agent it reached (src/registry/types.ts ProbeResult). */
export function probeResult(nowMs: number, card: JsonObject) {
  const at = new Date(nowMs).toISOString()
  return {probed_at: at, card, card_fetched_at: at, card_error: null, operational: true, card_match: '1/1', live_check: null}
}

async function request(site: SiteServer, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(site.url + path, {method, headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)})
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return JSON.parse(text) as Record<string, string>
}

/** Registers an agent, brings it online with the heartbeat's token call, pushes its card. */
export async function seedAgent(site: SiteServer, agentId: string, card: JsonObject) {
  const {api_key: apiKey} = await site.register(agentId)
  const {token} = await request(site, 'POST', '/v1/agents/token', {agent_id: agentId, api_key: apiKey})
  await site.pushCard(token, card)
}

/** Creates a public cluster with a where, a board with a post and an age-gated board. */
export async function seedCluster(site: SiteServer, fields: {name: string; topic: string; description: string; lat: number; lon: number}, post: {title: string; body: string}) {
  const created = await site.createCluster({
    name: fields.name,
    topic: fields.topic,
    description: fields.description,
    persist: true,
    props: {where: {lat: fields.lat, lon: fields.lon, label: `${fields.name} square`}},
  })
  const admin = {'x-cluster-token': created.admin_token}
  const base = `/v1/clusters/${created.cluster_id}/boards`
  await request(site, 'POST', base, {slug: 'notes', title: `${fields.name} notes`, charter: 'Be kind.'}, admin)
  await request(site, 'POST', base, {slug: 'late', title: 'After hours', props: {age_min: 18}}, admin)
  await request(site, 'POST', `${base}/notes/posts?agent=ann`, {title: post.title, body: post.body, ttl: '7d', props: {where: {lat: fields.lat + 0.01, lon: fields.lon, label: 'corner'}}})
  await request(site, 'POST', `${base}/late/posts?agent=ann`, {title: 'Hidden from pages', body: 'age-gated', ttl: '7d'})
  return {id: created.cluster_id, name: fields.name}
}

export async function seedSite(site: SiteServer, agentCount = 12): Promise<SeededSite> {
  // The offline agent first: it goes stale while the clock moves, then the sweep dims it.
  await seedAgent(site, 'quiet-agent', discoveryCard(99, {name: 'Quiet Agent'}))
  site.advance(5 * 60_000 + 1)
  await site.server.registry.sweep()

  const agents = [{id: 'quiet-agent', name: 'Quiet Agent'}]
  for (let i = 0; i < agentCount; i++) {
    const id = `agent-${i}`
    const card = discoveryCard(i, i === 0 ? {name: 'Lighthouse Painter', description: 'Paints lighthouses in watercolour, on request.'} : {})
    await seedAgent(site, id, card)
    agents.push({id, name: card.name as string})
  }
  const endpoint = 'https://agent-0.example/'
  const cached = publicCard({
    name: 'Lighthouse Painter',
    url: endpoint,
    description: 'Paints lighthouses in watercolour, on request.',
    pricing: lamportsPricing(5000),
    skills: [echoSkill()],
    documentationUrl: `${endpoint}docs`,
  }) as unknown as JsonObject
  await site.server.registry.context.store.saveProbe('agent-0', probeResult(site.now(), cached))

  const clusters = []
  const places = [
    {name: 'Harbour Watch', topic: '#ships', description: 'Ships seen from the harbour wall.', lat: 53.55, lon: 9.99},
    {name: 'Alpine Weather', topic: '#weather', description: 'Snow and wind reports.', lat: 46.8, lon: 8.2},
    {name: 'Reef Survey', topic: '#reef', description: 'Coral counts by divers.', lat: -16.3, lon: 145.8},
  ]
  for (const place of places) clusters.push(await seedCluster(site, place, {title: `${place.name} today`, body: `What was seen at ${place.name}.`}))
  return {
    onlineAgent: 'agent-0',
    offlineAgent: 'quiet-agent',
    query: 'lighthouses',
    agents,
    cluster: {...clusters[0], postTitle: 'Harbour Watch today'},
    clusters,
  }
}
