import {afterEach, describe, expect, it} from 'vitest'
import {createSearchPart} from '../../../src/registry/search/part.js'
import {encodeCursor} from '../../../src/registry/http/routes.js'
import {createSitePart} from '../../../src/registry/site/part.js'
import type {NetworkGraph} from '../../../src/registry/site/network/model.js'
import type {RegistryPart} from '../../../src/registry/types.js'
import {createHarness, type Harness} from '../harness.js'

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8'
let open: RegistryPart[] = []

async function site(options: {search?: boolean} = {}) {
  let sitePart!: RegistryPart
  const h = createHarness({
    limits: {registrationsPerIpPerHour: 10_000, perIpPerMinute: 100_000},
    parts: (ctx) => {
      const search = options.search === false ? undefined : createSearchPart(ctx, {resyncMs: 0})
      sitePart = createSitePart(ctx, {search: search?.service})
      return search ? [search, sitePart] : [sitePart]
    },
  })
  await sitePart.start?.()
  open.push(sitePart)
  return h
}

/** Registers, comes online (a token call) and pushes a card. */
async function agent(h: Harness, id: string, card: Record<string, unknown>) {
  const {api_key} = await h.register(id)
  const token = await h.token(id, api_key)
  const pushed = await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: card})
  if (pushed.status !== 200) throw new Error(`push ${id}: ${pushed.status} ${JSON.stringify(pushed.body)}`)
  return {api_key, token}
}

/** Lets the model apply the events just published (each is one store read). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

afterEach(async () => {
  for (const part of open.splice(0)) await part.close()
})

describe('GET /network/graph.json', () => {
  it('lays out every agent grouped by brand, then category, with its online state', async () => {
    const h = await site()
    await agent(h, 'img-1', {name: 'Painter', brand: 'acme', category: 'media.image'})
    await agent(h, 'img-2', {name: 'Sketcher', brand: 'acme', category: 'media.image'})
    await agent(h, 'sum-1', {name: 'Summarizer', brand: 'acme', category: 'text.summarize'})
    await agent(h, 'solo', {name: 'Solo'})
    await h.register('silent') // never online, no card
    await settle()
    const res = await h.http.get('/network/graph.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('application/json')
    const graph = res.body as NetworkGraph
    expect(graph).toMatchObject({width: 1000, height: 1000, agents: 5, online: 4})
    expect(graph.groups.map((group) => [group.kind, group.brand, group.category])).toEqual([
      ['brand', 'acme', null],
      ['brand', null, null],
      ['category', 'acme', 'media.image'],
      ['category', 'acme', 'text.summarize'],
      ['category', null, null],
    ])
    const byId = new Map(graph.nodes.map((node) => [node.id, node]))
    expect([...byId.keys()]).toEqual(['img-1', 'img-2', 'sum-1', 'silent', 'solo'])
    expect(byId.get('img-1')).toMatchObject({name: 'Painter', group: 2, online: true})
    expect(byId.get('sum-1')!.group).toBe(3)
    expect(byId.get('silent')).toMatchObject({name: 'silent', group: 4, online: false})
    for (const node of graph.nodes) expect(Object.keys(node).sort()).toEqual(['group', 'id', 'name', 'online', 'r', 'x', 'y'])
  })

  it('follows the events: a new brand moves the layout, the sweep dims an agent', async () => {
    const h = await site()
    await agent(h, 'aaa', {name: 'A', brand: 'one', category: 'x'})
    const {api_key} = await agent(h, 'bbb', {name: 'B', brand: 'one', category: 'x'})
    await settle()
    const before = (await h.http.get('/network/graph.json')).body as NetworkGraph
    expect(before.groups.filter((group) => group.kind === 'brand')).toHaveLength(1)
    h.advance(5 * 60_000 + 1)
    await h.token('bbb', api_key) // b stays online
    await h.registry.sweep()
    await agent(h, 'ccc', {name: 'C', brand: 'two', category: 'y'})
    await settle()
    const after = (await h.http.get('/network/graph.json')).body as NetworkGraph
    expect(after.groups.filter((group) => group.kind === 'brand').map((group) => group.brand)).toEqual(['one', 'two'])
    expect(after.nodes.map((node) => [node.id, node.online])).toEqual([
      ['aaa', false],
      ['bbb', true],
      ['ccc', true],
    ])
    expect(after).toMatchObject({agents: 3, online: 2})
  })
})

describe('GET /network', () => {
  it('shows the counts and a list of agents linking to their pages, with their state', async () => {
    const h = await site()
    await agent(h, 'img-1', {name: 'Painter', brand: 'acme', category: 'media.image'})
    await h.register('silent')
    await settle()
    const res = await h.http.get('/network').set('accept', HTML)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(res.text).toMatch(/<strong data-count="agents">2<\/strong> agents · <strong data-count="online">1<\/strong> online/)
    expect(res.text).toMatch(/<li class="agent" data-agent-id="img-1" data-online="true">\s*<a class="name" href="\/agent\/img-1">Painter<\/a>\s*<span class="group">acme · media.image<\/span>/)
    expect(res.text).toMatch(/<li class="agent" data-agent-id="silent" data-online="false">[\s\S]*never seen/)
    expect(res.text).toContain('<canvas role="img" aria-label="Graph of the registry')
    expect(res.text).toContain('<label for="network-q">Search agents</label>')
    expect(res.text).toMatch(/<script defer src="\/site\/network\.[0-9a-f]+\.js"><\/script>/)
    expect(res.text).not.toContain('rel="next"')
  })

  it('pages the list 50 at a time with the registry cursor, and explains a bad cursor', async () => {
    const h = await site({search: false})
    for (let i = 0; i < 120; i++) await h.register(`agent-${String(i).padStart(3, '0')}`)
    await settle()
    const ids = (text: string) => [...text.matchAll(/data-agent-id="([^"]+)"/g)].map((match) => match[1])
    const first = await h.http.get('/network').set('accept', HTML)
    expect(ids(first.text)).toHaveLength(50)
    expect(ids(first.text)[0]).toBe('agent-000')
    expect(first.text).toContain(`href="/network?cursor=${encodeCursor('agent-049')}"`)
    const second = await h.http.get(`/network?cursor=${encodeCursor('agent-049')}`).set('accept', HTML)
    expect(ids(second.text)).toEqual(Array.from({length: 50}, (_, i) => `agent-${String(50 + i).padStart(3, '0')}`))
    expect(second.text).toContain('href="/network">First page</a>')
    const third = await h.http.get(`/network?cursor=${encodeCursor('agent-099')}`).set('accept', HTML)
    expect(ids(third.text)).toHaveLength(20)
    expect(third.text).not.toContain('rel="next"')
    expect(third.text).toContain('<strong data-count="agents">120</strong>')
    const bad = await h.http.get('/network?cursor=not-a-cursor').set('accept', HTML)
    expect(bad.status).toBe(400)
    expect(bad.headers['content-type']).toContain('text/html')
    expect(bad.text).toContain('That page link is not one this registry made.')
  })

  it('runs the search on the server, with the operational-only filter', async () => {
    const h = await site()
    await agent(h, 'painter', {name: 'Image painter', brand: 'acme', category: 'media.image', description: 'paints pictures from a prompt'})
    await agent(h, 'writer', {name: 'Writer', brand: 'acme', category: 'text.write', description: 'writes essays'})
    await h.store.saveProbe('writer', {probed_at: new Date(h.now()).toISOString(), card: null, operational: true, card_match: null})
    await settle()
    const found = await h.http.get('/network?q=paints+pictures').set('accept', HTML)
    expect(found.status).toBe(200)
    expect(found.text).toMatch(/1 result for “paints pictures”/)
    expect(found.text).toMatch(/<li class="result" data-agent-id="painter">\s*<a class="name" href="\/agent\/painter">Image painter<\/a>/)
    expect(found.text).toContain('value="paints pictures"')
    const operational = await h.http.get('/network?q=paints+pictures&operational_only=1').set('accept', HTML)
    expect(operational.text).toContain('No agent found')
    expect(operational.text).toMatch(/name="operational_only" value="1" checked/)
    const tooLong = await h.http.get(`/network?q=${'x'.repeat(1001)}`).set('accept', HTML)
    expect(tooLong.status).toBe(200)
    expect(tooLong.text).toContain('That search could not be read')
  })

  it('shows no search form without a search service', async () => {
    const h = await site({search: false})
    const res = await h.http.get('/network?q=anything').set('accept', HTML)
    expect(res.status).toBe(200)
    expect(res.text).not.toContain('<form')
    expect(res.text).not.toContain('network-q')
  })

  it('renders hostile card text inert in the list, the search results and graph.json', async () => {
    const h = await site()
    const evil = '<script>alert(1)</script>\u202Egnp.exe'
    await agent(h, 'evil', {name: evil, brand: '"><img src=x onerror=alert(2)>', category: "javascript:alert('3')", description: `script ${'x'.repeat(400)}`})
    await settle()
    const page = await h.http.get('/network?q=script').set('accept', HTML)
    expect(page.text).not.toContain('<script>alert')
    expect(page.text).not.toContain('<img')
    expect(page.text).not.toContain('\u202E')
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;gnp.exe')
    expect(page.text).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;')
    expect(page.text).not.toMatch(/href="javascript:/)
    const graph = (await h.http.get('/network/graph.json')).body as NetworkGraph
    expect(graph.nodes[0].name).toBe(evil)
    expect(graph.groups[0].brand).toBe('"><img src=x onerror=alert(2)>')
  })
})
