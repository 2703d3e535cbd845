/**
 * A hostile agent and a hostile public cluster, for the check that every
 * page renders them inert (issue 12 bar): script tags and event handlers in
 * every text field, `javascript:` URLs wherever a URL goes, bidi overrides
 * and isolates in names, 16 KB of text where the schemas allow that much.
 *
 * The DiscoveryCard and the cluster, boards and posts go through the real
 * routes (their schemas refuse a `javascript:` endpoint, so those stay
 * https). The cached PublicCard is saved straight into the store, as a
 * prober would save it, without the schema's URL checks: the pages must be
 * safe even with a card no validator has seen.
 */
import type {RegistryStore} from '../../../src/registry/store/store.js'
import type {JsonObject} from '../../../src/registry/types.js'
import {probeResult} from './quality-fixture.js'

export const SCRIPT = '<script>alert(1)</script>'
export const HANDLER = '<img src=x onerror=alert(2)>'
export const JS_URL = 'javascript:alert(3)'
/** RIGHT-TO-LEFT OVERRIDE and LEFT-TO-RIGHT ISOLATE … POP DIRECTIONAL ISOLATE. */
export const BIDI = '\u202Egnp.exe\u2066x\u2069'
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/
export const LONG = 'A'.repeat(16 * 1024)

export const HOSTILE_AGENT = 'hostile-agent'
/** A word in the hostile agent's description the search finds. */
export const HOSTILE_QUERY = 'mischief'

/** `"><svg onload=alert(4)>` closes an attribute when a page forgets to escape one. */
const BREAKOUT = '"><svg onload=alert(4)>'

export function hostileDiscoveryCard(): JsonObject {
  return {
    name: `${SCRIPT}${BIDI}`.slice(0, 100),
    brand: `${BREAKOUT}${BIDI}b`.slice(0, 64),
    category: `${HANDLER}${BIDI}`.slice(0, 100),
    description: `mischief ${SCRIPT} ${HANDLER} ${BREAKOUT} ${BIDI} ${'B'.repeat(300)}`.slice(0, 500),
    tags: [SCRIPT.slice(0, 50), BREAKOUT, `${BIDI}tag`, 'mischief'],
    endpoint: 'https://hostile.example/',
    availability: {now: true},
  }
}

/** The PublicCard a hostile agent serves, as the prober would cache it (no schema check). */
export function hostilePublicCard(): JsonObject {
  const skill = (id: string) => ({
    id,
    name: `${SCRIPT}${BIDI}`,
    description: `${HANDLER} ${BREAKOUT} ${LONG}`,
    examples: [SCRIPT, `curl ${JS_URL}`, BREAKOUT],
    inputSchema: {type: 'object', properties: {[SCRIPT]: {type: 'string', description: `${HANDLER}${BREAKOUT}`, default: JS_URL}}},
    tags: [SCRIPT, BIDI],
    url: JS_URL,
    documentationUrl: JS_URL,
    returns: [SCRIPT],
  })
  return {
    name: `${SCRIPT}${BIDI}`,
    url: JS_URL,
    version: `${SCRIPT}`,
    description: `${SCRIPT} ${HANDLER} ${BREAKOUT} ${BIDI} ${LONG}`,
    defaultInputModes: [SCRIPT],
    defaultOutputModes: ['application/json'],
    protocols: ['http', SCRIPT],
    pricing: {unit: SCRIPT, amount: 5000, currency: 'lamports', network: BREAKOUT},
    availability: {now: true, sla: SCRIPT},
    skills: [skill('echo'), skill(`${BREAKOUT}`)],
    contact: {email: `${BREAKOUT}@x`, url: JS_URL, x: JS_URL},
    documentationUrl: JS_URL,
    iconUrl: JS_URL,
    links: [{href: JS_URL, title: SCRIPT}],
  }
}

export const hostileCluster = {
  name: `${SCRIPT}${BIDI}`.slice(0, 100),
  topic: `${HANDLER}${BREAKOUT}`.slice(0, 200),
  description: `${SCRIPT} ${BREAKOUT} ${BIDI} ${JS_URL} ${'C'.repeat(1900)}`.slice(0, 2000),
  where: {lat: 10, lon: 20, label: `${SCRIPT}${BIDI}`.slice(0, 200)},
}

/** Sends a JSON request; answers the parsed body, throws on a non-2xx status. */
export type Send = (method: string, path: string, body: unknown, headers?: Record<string, string>) => Promise<Record<string, unknown>>

export interface SeededHostile {
  agentId: string
  clusterId: string
}

/** Registers the hostile agent (card pushed, PublicCard cached) and creates the hostile public cluster with a board and a post. */
export async function seedHostile(send: Send, store: RegistryStore, nowMs: number): Promise<SeededHostile> {
  const registered = await send('POST', '/v1/agents/register', {agent_id: HOSTILE_AGENT, description: `${SCRIPT}${BIDI}`})
  // The token call is the heartbeat: the agent is online, as a live hostile agent would be.
  const {token} = (await send('POST', '/v1/agents/token', {agent_id: HOSTILE_AGENT, api_key: registered.api_key})) as {token: string}
  await send('PATCH', '/v1/agents/me', {agent_card: hostileDiscoveryCard()}, {authorization: `Bearer ${token}`})
  await store.saveProbe(HOSTILE_AGENT, {...probeResult(nowMs, hostilePublicCard()), card_match: `${SCRIPT}`})

  const created = await send('POST', '/v1/clusters', {
    name: hostileCluster.name,
    visibility: 'public',
    topic: hostileCluster.topic,
    description: hostileCluster.description,
    persist: true,
    props: {where: hostileCluster.where, lang: 'en'},
  })
  const clusterId = created.cluster_id as string
  const admin = {'x-cluster-token': created.admin_token as string}
  const boards = `/v1/clusters/${clusterId}/boards`
  await send('POST', boards, {slug: 'evil', title: `${SCRIPT}${BIDI}`, charter: `${HANDLER} ${BREAKOUT} ${'D'.repeat(4000)}`.slice(0, 4096), props: {where: hostileCluster.where}}, admin)
  await send('POST', `${boards}/evil/posts?agent=mallory`, {
    title: `${SCRIPT}${BIDI}`.slice(0, 200),
    // 16 KB of UTF-8 at most: the bidi controls take 3 bytes each.
    body: `${SCRIPT} ${HANDLER} ${BREAKOUT} ${BIDI} ${JS_URL} ${LONG}`.slice(0, 16300),
    ttl: '7d',
    props: {where: {lat: 11, lon: 21, label: `${BREAKOUT}${BIDI}`}},
  })
  return {agentId: HOSTILE_AGENT, clusterId}
}

/** The pages that show the hostile agent or cluster, and the text a person must see there (shown as text, not run). */
export function hostilePages(seeded: SeededHostile) {
  return [
    {name: 'agent', path: `/agent/${seeded.agentId}`, shows: SCRIPT},
    {name: 'network', path: '/network', shows: SCRIPT},
    {name: 'network-search', path: `/network?q=${HOSTILE_QUERY}`, shows: SCRIPT},
    {name: 'clusters', path: '/clusters', shows: SCRIPT},
    {name: 'cluster', path: `/clusters/${seeded.clusterId}`, shows: SCRIPT},
    {name: 'resources', path: '/resources', shows: 'Network resources'},
  ]
}

// A start tag, its attribute values kept whole (quoted values may hold spaces; the pages escape `>` inside them).
const TAG = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s=>"'/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g
const ATTRIBUTE = /([^\s=>"'/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g

/** The start tags of an HTML text: name and attributes (values unquoted, entities left as written). */
export function startTags(text: string) {
  return [...text.matchAll(TAG)].map((m) => ({
    tag: m[0],
    name: m[1].toLowerCase(),
    attributes: [...m[2].matchAll(ATTRIBUTE)].map((a) => ({name: a[1].toLowerCase(), value: (a[2] ?? '').replace(/^["']|["']$/g, '')})),
  }))
}

/**
 * What makes served HTML unsafe: a script tag not from /site/, an event
 * handler attribute, a `javascript:` (or data:) link, an embedded frame or
 * object, a bidi control. Reads the raw HTML, so it also catches what a
 * browser would have dropped.
 */
export function htmlProblems(text: string): string[] {
  const problems: string[] = []
  for (const {tag, name, attributes} of startTags(text)) {
    const shown = tag.slice(0, 160)
    if (name === 'script' && !attributes.some((a) => a.name === 'src' && a.value.startsWith('/site/'))) problems.push(`script tag: ${shown}`)
    if (['iframe', 'object', 'embed', 'frame', 'base'].includes(name)) problems.push(`injected element: ${shown}`)
    for (const attribute of attributes) {
      if (/^on/.test(attribute.name)) problems.push(`event handler ${attribute.name}: ${shown}`)
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data'].includes(attribute.name) && /^\s*(javascript|data|vbscript):/i.test(attribute.value.replace(/&#?\w+;/g, ''))) {
        problems.push(`script URL in ${attribute.name}: ${shown}`)
      }
      if (attribute.name === 'style') problems.push(`inline style: ${shown}`)
    }
  }
  const bidi = text.search(BIDI_CONTROLS)
  if (bidi >= 0) problems.push(`bidi control at ${bidi}: …${text.slice(Math.max(0, bidi - 60), bidi).replace(/\s+/g, ' ')}`)
  return problems
}
