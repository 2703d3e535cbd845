import {spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {createSitePart} from '../../../src/registry/site/part.js'
import {commandJson, skillCommands} from '../../../src/registry/site/agent/commands.js'
import {renderAgentPage} from '../../../src/registry/site/agent/page.js'
import {allowanceText, priceText} from '../../../src/registry/site/agent/pricing.js'
import {createSiteAssets} from '../../../src/registry/site/assets.js'
import type {AgentRecord, ProbeResult} from '../../../src/registry/types.js'
import {createHarness, START_MS} from '../harness.js'

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8'

/** A PublicCard as the prober caches it. */
function publicCard(url: string, extra: Record<string, unknown> = {}) {
  return {
    name: 'Translator',
    url,
    version: '2.1.0',
    description: 'Translates text between 40 languages.',
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    protocols: ['http', 'x402'],
    pricing: {unit: 'request', amount: 1_500_000, currency: 'lamports', network: 'solana-devnet', free_per_day: 10},
    availability: {now: true},
    skills: [
      {
        id: 'translate',
        name: 'Translate text',
        description: 'Translates up to 5000 characters; about 1 s.',
        examples: ['translate "hello" into French', '{"text":"hello","to":"fr"}'],
        inputSchema: {type: 'object', required: ['text', 'to'], properties: {text: {type: 'string'}, to: {type: 'string'}}},
        returns: ['text'],
      },
      {id: 'languages', name: 'List languages', description: 'Free. The language codes it knows.', examples: ['which languages?', '{}'], pricing: {unit: 'request', amount: 0, currency: 'free'}},
    ],
    ...extra,
  }
}

async function siteHarness() {
  const h = createHarness({parts: (ctx) => [createSitePart(ctx)]})
  const {api_key} = await h.register('translator', {endpoint: 'https://translator.example'})
  const token = await h.token('translator', api_key)
  const pushed = await h.http
    .patch('/v1/agents/me')
    .set('authorization', `Bearer ${token}`)
    .send({agent_card: {name: 'Translator', brand: 'Acme', owner_class: 'third-party', description: 'Fast translation.', category: 'language.translation', tags: ['translate', 'fr']}})
  expect(pushed.status).toBe(200)
  const page = async (id = 'translator') => {
    const res = await h.http.get(`/agent/${id}`).set('accept', HTML)
    return res
  }
  return {h, api_key, page}
}

const probe = (card: Record<string, unknown> | null, extra: Partial<ProbeResult> = {}): ProbeResult => ({
  probed_at: new Date(START_MS).toISOString(),
  card,
  card_fetched_at: card ? new Date(START_MS - 60_000).toISOString() : null,
  operational: true,
  card_match: '1/1',
  live_check: {ok: true, source: 'health', checked_at: new Date(START_MS).toISOString()},
  skills: [
    {id: 'translate', url: 'https://translator.example/v1/translate', answering: true, card_match: '1/1'},
    {id: 'languages', url: 'https://translator.example/v1/languages', answering: true},
  ],
  ...extra,
})

/** Runs a command line in POSIX sh with `curl` and `mesh` replaced by functions that print their arguments. */
function argvOf(command: string): string[] {
  const script = `curl() { printf '%s\\0' curl "$@"; }; mesh() { printf '%s\\0' mesh "$@"; }; ${command}`
  const run = spawnSync('/bin/sh', ['-c', script], {encoding: 'utf8'})
  expect(run.status, run.stderr).toBe(0)
  return run.stdout.split('\0').slice(0, -1)
}

const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&amp;/g, '&')

describe('agent page', () => {
  it('shows a person every field: name, brand, owner, description, category, tags, state, qualities in words, pricing, identity', async () => {
    const {h, page} = await siteHarness()
    await h.store.saveProbe('translator', probe(publicCard('https://translator.example')))
    const res = await page()
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.headers['content-security-policy']).toContain("script-src 'self'")
    expect(res.headers.vary).toContain('Accept')
    const text = res.text
    expect(text).toContain('<h1 id="agent-name">Translator</h1>')
    expect(text).toContain('Acme')
    expect(text).toContain('third-party — run by an independent operator')
    expect(text).toContain('Fast translation.')
    expect(text).toContain('language.translation')
    expect(text).toMatch(/<span class="tag">translate<\/span><span class="tag">fr<\/span>/)
    expect(text).toContain('class="state online" data-online="true"')
    expect(text).toContain('class="agent-page is-online" data-agent-id="translator"')
    // The badges and what they mean.
    expect(text).toContain('>operational</span>')
    expect(text).toContain("Every skill on its card answered the registry's last probe")
    expect(text).toContain('card match 1/1')
    expect(text).toContain('the answers held 1 of the 1 response fields the card promises')
    expect(text).toContain('<code>GET /health</code> answered <code>{"ok": true}</code>')
    // Pricing in human units, with the free allowance.
    expect(text).toContain('1500000 lamports (0.0015 SOL) per request on solana-devnet')
    expect(text).toContain('10 free calls per caller per day, then paid')
    // Identity: handle versus location, the key.
    expect(text).toContain('<code>https://registry.example/agent/translator</code>')
    expect(text).toContain('it stays the same when the agent moves')
    expect(text).toContain('href="https://translator.example/"')
    expect(text).toContain('Where it runs now: it may move')
    expect(text).toContain('no key')
    // JSON links and the note on the JSON view.
    expect(text).toContain('href="/agent/translator/.well-known/agent.json"')
    expect(text).toContain('curl -H &#39;Accept: application/json&#39; https://registry.example/agent/translator')
    // Assets by hashed name, no inline script.
    expect(text).toMatch(/<script defer src="\/site\/agent\.[\w-]+\.js"><\/script>/)
    expect(text).toMatch(/<link rel="stylesheet" href="\/site\/agent\.[\w-]+\.css">/)
    expect(text).not.toMatch(/<script>|style="|onclick=/)
  })

  it('shows every skill of the cached PublicCard with description, examples, input schema, price and commands for its exact URL', async () => {
    const {h, page} = await siteHarness()
    await h.store.saveProbe('translator', probe(publicCard('https://translator.example')))
    const text = (await page()).text
    expect(text).toContain('From its PublicCard, fetched <time datetime="2026-06-15T11:59:00.000Z"')
    expect(text).toContain('<h3>Translate text</h3> <code class="skill-id">translate</code>')
    expect(text).toContain('Translates up to 5000 characters; about 1 s.')
    expect(text).toContain('<code>translate &quot;hello&quot; into French</code>')
    expect(text).toContain('<summary>Input schema</summary><pre><code>{\n  &quot;type&quot;: &quot;object&quot;,')
    expect(text).toContain('answered the last probe')
    expect(text).toContain('<h3>List languages</h3>')
    expect(text).toMatch(/<span class="badge neutral" title="Price per call">free<\/span>/)
    expect(text).toContain('<code>https://translator.example/v1/translate</code>')
    const commands = [...text.matchAll(/<pre class="cmd"><code>([^<]*)<\/code><\/pre>/g)].map((m) => unescape(m[1]))
    expect(commands).toContain(`curl -sS -X POST https://translator.example/v1/translate -H 'Content-Type: application/json' --data '{"text":"hello","to":"fr"}'`)
    expect(commands).toContain(`mesh call https://translator.example translate --data '{"text":"hello","to":"fr"}'`)
    expect(commands).toContain(`mesh call https://translator.example languages --data '{}'`)
    expect(argvOf(commands[0])).toEqual(['curl', '-sS', '-X', 'POST', 'https://translator.example/v1/translate', '-H', 'Content-Type: application/json', '--data', '{"text":"hello","to":"fr"}'])
  })

  it('keeps the skill URLs on the registered origin: a card url elsewhere is not used', async () => {
    const {h, page} = await siteHarness()
    await h.store.saveProbe('translator', probe(publicCard('https://elsewhere.example/t')))
    const text = (await page()).text
    expect(text).toContain('<code>https://translator.example/v1/translate</code>')
    expect(text).not.toContain('elsewhere.example/t/v1')
  })

  it('offline: dimmed, no pulse, last seen, and says the skills answer only once it is back', async () => {
    const {h, page} = await siteHarness()
    await h.store.saveProbe('translator', probe(publicCard('https://translator.example')))
    h.advance(5 * 60_000 + 1)
    const text = (await page()).text
    expect(text).toContain('class="agent-page is-offline"')
    expect(text).toContain('class="state offline" data-online="false"')
    expect(text).toContain('last seen <time datetime="2026-06-15T12:00:00.000Z">5 minutes ago</time>')
    expect(text).not.toContain('class="state online"')
    expect(text).toContain('The agent is offline: these skills answer only once it is back.')
    expect(text).not.toContain('href="/agent/translator/.well-known/agent.json"')
    expect(text).toContain('PublicCard <span class="muted">— not served now')
    expect(text).toContain('<h3>Translate text</h3>')
  })

  it('before the first probe: says the PublicCard is not fetched yet and shows what is known', async () => {
    const {page} = await siteHarness()
    const text = (await page()).text
    expect(text).toContain("has not fetched this agent's PublicCard")
    expect(text).toContain('operational: unknown')
    expect(text).toContain('live: not checked')
    expect(text).toContain('Fast translation.')
    expect(text).not.toContain('class="skill"')
  })

  it('a failed latest fetch: says when, why, and that the last good copy is shown', async () => {
    const {h, page} = await siteHarness()
    await h.store.saveProbe('translator', probe(publicCard('https://translator.example'), {card_error: {at: new Date(START_MS).toISOString(), reason: 'card_unavailable: GET /.well-known/agent.json answered 503'}, operational: false, live_check: {ok: true, source: 'availability', checked_at: new Date(START_MS).toISOString()}}))
    const text = (await page()).text
    expect(text).toContain('failed: <code>card_unavailable: GET /.well-known/agent.json answered 503</code>. The last good copy is shown.')
    expect(text).toContain('not operational')
    expect(text).toContain('It serves no <code>/health</code>; its card said <code>availability.now: true</code>')
  })

  it('a verified key: shows the did', async () => {
    const h = createHarness({parts: (ctx) => [createSitePart(ctx)]})
    const {res} = await h.registerSigned('signed-agent')
    expect(res.status).toBe(201)
    const text = (await h.http.get('/agent/signed-agent').set('accept', HTML)).text
    expect(text).toMatch(/<code>did:key:z[1-9A-HJ-NP-Za-km-z]+<\/code>/)
    expect(text).toContain('verified key')
  })

  it('unknown agents and ids that break the agent-id rule get an HTML 404 a person can read; JSON clients keep the JSON answer', async () => {
    const {h} = await siteHarness()
    for (const id of ['ghost', 'x', '%3Cscript%3E', 'a'.repeat(65), '%E0%A4%A']) {
      const res = await h.http.get(`/agent/${id}`).set('accept', HTML)
      expect(res.status, id).toBe(404)
      expect(res.headers['content-type']).toContain('text/html')
      expect(res.text).toContain('<h1>No such agent</h1>')
      expect(res.text).not.toContain('<script>')
    }
    const json = await h.http.get('/agent/ghost').set('accept', 'application/json')
    expect([json.status, json.body.error.code]).toEqual([404, 'agent_not_found'])
  })
})

describe('agent page with a hostile card', () => {
  const hostileText = (n: number) => `<script>alert(1)</script>\u202Eevil\u2066 ` + 'x'.repeat(n)
  const agent = (): AgentRecord => ({
    agentId: 'hostile',
    apiKeyHash: 'h',
    pubkey: null,
    endpoint: 'javascript:alert(1)//',
    capabilities: ['<img src=x onerror=alert(1)>'],
    agentCard: {name: '<script>alert("name")</script>\u202Egnp.exe', category: '<b>c</b>', tags: ['<i>t</i>'], description: hostileText(16_000)},
    description: hostileText(16_000),
    displayName: '<script>alert("name")</script>\u202Egnp.exe',
    ownerClass: 'third-party',
    brand: '<a href="javascript:alert(2)">brand</a>',
    createdAtMs: START_MS,
    lastSeenMs: START_MS,
    probe: probe(
      publicCard('javascript:alert(3)', {
        documentationUrl: 'javascript:alert(4)',
        description: hostileText(16_000),
        skills: [
          {
            id: `x'; rm -rf ~; echo '$(id)\`id\`\u202E`,
            name: '<script>alert(5)</script>',
            description: hostileText(16_000),
            examples: [hostileText(5000), `{"text":"it's \\u202e $(rm -rf ~) \`id\` \\"q\\""}`],
            inputSchema: {type: 'object', description: hostileText(16_000)},
          },
        ],
      }),
      {card_error: {at: new Date(START_MS).toISOString(), reason: '<script>alert(6)</script>'}},
    ),
  })

  it('renders inert: escaped, never linked, bidi dropped, clipped, under 200 KB', () => {
    const page = renderAgentPage(createSiteAssets(), {agent: agent(), nowMs: START_MS, publicUrl: 'https://registry.example'})
    expect(Buffer.byteLength(page)).toBeLessThan(200 * 1024)
    expect(page).not.toMatch(/<script>alert|<img|<b>c|<i>t|<a href="javascript/)
    expect(page).not.toMatch(/href="javascript:/i)
    expect(page).not.toContain('\u202E')
    expect(page).not.toContain('\u2066')
    expect(page).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;gnp.exe')
    // The endpoint is shown as text, not linked; with no http(s) address there is no command either.
    expect(page).toContain('<code>javascript:alert(1)//</code>')
    expect(page).toContain('No command: the card gives no http(s) address to call.')
    // 16 KB descriptions are clipped.
    expect(page).not.toContain('x'.repeat(3001))
    expect(page).toContain('x'.repeat(1000))
  })

  it('100 skills of 4 KB descriptions, 4 KB examples and big schemas: full cards while the budget lasts, then one line each, under 200 KB', () => {
    const big = agent()
    const quotes = '"<>&'.repeat(1000)
    const skills = Array.from({length: 100}, (_, i) => ({
      id: `skill-${i}`,
      name: `Skill ${i}`,
      description: quotes,
      examples: [quotes, quotes, quotes, JSON.stringify({text: quotes.slice(0, 900)})],
      inputSchema: {type: 'object', description: quotes, properties: {text: {type: 'string', description: quotes}}},
    }))
    big.endpoint = 'https://agent.example'
    big.probe = probe(publicCard('https://agent.example', {skills}))
    const started = performance.now()
    const page = renderAgentPage(createSiteAssets(), {agent: big, nowMs: START_MS, publicUrl: 'https://registry.example'})
    const ms = performance.now() - started
    console.log(`agent page with 100 hostile skills: ${Buffer.byteLength(page)} bytes, rendered in ${ms.toFixed(1)} ms`)
    expect(Buffer.byteLength(page)).toBeLessThan(200 * 1024)
    expect(page).toContain('<h3>Skill 0</h3>')
    expect(page).toMatch(/<h3>\d+ more skills<\/h3>/)
    expect(page).toContain('<strong>Skill 99</strong> <code>skill-99</code> · <code>POST https://agent.example/v1/skill-99</code>')
  })

  it('a hostile skill id and example cannot break out of the commands: each stays one argument', () => {
    const id = `x'; rm -rf ~; echo '$(id)\`id\` "q" \\ \n;`
    const example = {text: `it's $(rm -rf ~) \`id\` "q" \\ \u202E end`, n: 1}
    const {curl, meshCall} = skillCommands('https://agent.example/base', id, example)
    const body = commandJson(example)
    expect(body).toContain('\\u202e')
    expect(JSON.parse(body)).toEqual(example)
    expect(argvOf(curl)).toEqual(['curl', '-sS', '-X', 'POST', `https://agent.example/base/v1/${encodeURIComponent(id)}`, '-H', 'Content-Type: application/json', '--data', body])
    expect(argvOf(meshCall)).toEqual(['mesh', 'call', 'https://agent.example/base', id, '--data', body])
    // The page shows them as text; unescaped, they are the same commands.
    const hostile = agent()
    hostile.endpoint = 'https://agent.example/base'
    ;(hostile.probe!.card as Record<string, unknown>).url = 'https://agent.example/base'
    ;((hostile.probe!.card as {skills: Array<Record<string, unknown>>}).skills[0]).id = id
    ;((hostile.probe!.card as {skills: Array<Record<string, unknown>>}).skills[0]).examples = ['ask', JSON.stringify(example)]
    const page = renderAgentPage(createSiteAssets(), {agent: hostile, nowMs: START_MS, publicUrl: 'https://registry.example'})
    const shown = [...page.matchAll(/<pre class="cmd"><code>([^<]*)<\/code><\/pre>/g)].map((m) => unescape(m[1]))
    expect(shown).toContain(curl)
    expect(shown).toContain(meshCall)
    expect(page).toContain('This skill id breaks the card rules')
  })
})

describe('prices in words', () => {
  it('lamports with SOL, free, USD, and the allowance', () => {
    expect(priceText({unit: 'image', amount: 2_000_000_000, currency: 'lamports'})).toBe('2000000000 lamports (2 SOL) per image')
    expect(priceText({unit: 'request', amount: 0, currency: 'lamports'})).toBe('free')
    expect(priceText({unit: 'request', amount: 5, currency: 'free'})).toBe('free')
    expect(priceText({unit: 'minute', amount: 0.02, currency: 'USD'})).toBe('0.02 USD per minute')
    expect(priceText(undefined)).toBe('not stated')
    expect(allowanceText({unit: 'request', amount: 1, currency: 'lamports', freePerDay: 0})).toBe('no free calls: every call is paid')
    expect(allowanceText({unit: 'request', amount: 1, currency: 'lamports'})).toContain('not stated on the card')
    expect(allowanceText({unit: 'request', amount: 0, currency: 'free'})).toBeNull()
  })
})
