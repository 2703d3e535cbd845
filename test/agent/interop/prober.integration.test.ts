/**
 * The registry's own prober (src/registry/probe, the code `mesh serve
 * registry` runs) against an agent served by the kit (issue 11, interop):
 * the kit's card passes the registry's PublicCard check, every skill answers
 * the operational probe `POST {}`, and each free skill's answer to its own
 * JSON examples holds every declared `returns` path (spec Discovery
 * qualities: operational, card_match).
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments, type Payments} from '../../../src/agent/payments/index.js'
import {safeFetch} from '../../../src/http/safe-fetch.js'
import {silentLogger} from '../../../src/lib/log.js'
import {probeAgent, type AgentProbe, type ProbeFetch} from '../../../src/registry/probe/probe-agent.js'
import {lamportsPricing, publicCard} from '../../support/agent-card.js'
import {serveAgent, type ServedAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

const NOW = Date.parse('2026-06-20T12:00:00Z')
// The agent listens on loopback; the registry's policy refuses private addresses unless told otherwise.
const fetchPrivate: ProbeFetch = (url, init) => safeFetch(url, {...init, allowPrivate: true, timeoutMs: 2_000})

const card = publicCard({
  name: 'Prober Interop',
  version: '2.1.0',
  description: 'Translates, counts words and forecasts weather; probed by the registry in tests.',
  skills: [
    {
      id: 'translate',
      name: 'Translate',
      description: 'Use to translate short text. Input: text (1–500 characters), to (ISO 639-1). Output: {result: {text, lang}, meta: {chars}}. Under 1 s. Free.',
      examples: ['Translate "hello" to French.', '{"text": "hello", "to": "fr"}', '{"text": "thank you", "to": "de"}'],
      inputSchema: {
        type: 'object',
        required: ['text', 'to'],
        properties: {text: {type: 'string', minLength: 1, maxLength: 500}, to: {type: 'string', pattern: '^[a-z]{2}$'}},
      },
      returns: ['result.text', 'result.lang', 'meta.chars'],
    },
    {
      id: 'word-count',
      name: 'Word count',
      description: 'Use to count the words of a text. Input: text (up to 10,000 characters). Output: {words, lines[]}. Instant. Free.',
      examples: ['How many words are in "to be or not to be"?', '{"text": "to be or not to be"}'],
      // The other spelling of the schema key (spec Skill: inputSchema or input_schema).
      input_schema: {type: 'object', required: ['text'], properties: {text: {type: 'string', maxLength: 10_000}}},
      returns: ['words', 'lines[0].words'],
    },
    {
      id: 'forecast',
      name: 'Forecast',
      description: 'Use for tomorrow\'s weather in a city. Input: city. Output: {city, high_c, low_c}. About 2 s. 2000 lamports a call; 5 free calls a day.',
      examples: ['Weather in Lisbon tomorrow?', '{"city": "Lisbon"}'],
      inputSchema: {type: 'object', required: ['city'], properties: {city: {type: 'string', minLength: 1}}},
      returns: ['high_c', 'low_c'],
      pricing: lamportsPricing(2000),
    },
  ],
})

const translations: Record<string, Record<string, string>> = {fr: {hello: 'bonjour'}, de: {'thank you': 'danke'}}

let chain: SolanaRpcServer
let gate: Payments
let host: ServedAgent
const calls: Array<{skill: string; input: unknown}> = []
let probe: AgentProbe

beforeAll(async () => {
  chain = await startSolanaRpc()
  gate = createPayments({wallet: randomAddress(), rpcUrl: chain.url, network: 'solana-devnet', freePerDay: 5, card, rpcTimeoutMs: 5_000})
  const record = (skill: string, input: unknown) => calls.push({skill, input})
  host = await serveAgent({
    card,
    payments: gate,
    logger: silentLogger,
    skills: {
      translate: (input: {text: string; to: string}) => {
        record('translate', input)
        return {result: {text: translations[input.to]?.[input.text] ?? input.text, lang: input.to}, meta: {chars: input.text.length}}
      },
      'word-count': (input: {text: string}) => {
        record('word-count', input)
        const lines = input.text.split('\n').map((line) => ({words: line.split(/\s+/).filter(Boolean).length}))
        return {words: lines.reduce((sum, line) => sum + line.words, 0), lines}
      },
      forecast: (input: {city: string}, ctx: SkillContext) => {
        record('forecast', input)
        return {city: input.city, high_c: 24, low_c: 15, paid_via: ctx.payment?.via}
      },
    },
  })
  probe = await probeAgent({agentId: 'prober-interop', endpoint: host.url, discoveryCard: {name: card.name, availability: {now: true}}}, {fetch: fetchPrivate, now: () => NOW})
})

afterAll(async () => {
  await host?.stop()
  await chain?.close()
})

describe('the registry prober against an agent served by the kit', () => {
  it('records operational: true and card_match n/n', () => {
    expect(probe.error).toBeNull()
    expect(probe.card_error).toBeNull()
    expect(probe.operational).toBe(true)
    // translate 3 paths + word-count 2 paths; the paid forecast is never content-probed.
    expect(probe.card_match).toBe('5/5')
  })

  it('accepts the card the kit serves as a valid PublicCard, unchanged', () => {
    // The kit serves the card with its A2A and MCP endpoints declared (issue 24).
    expect(probe.card).toEqual(host.agent.card)
    expect(probe.card).toMatchObject({...card, protocols: [...card.protocols, 'a2a', 'mcp']})
    expect(probe.card_fetched_at).toBe('2026-06-20T12:00:00.000Z')
  })

  it('reads /health as live from the kit\'s answer', () => {
    expect(probe.health).toEqual({status: 200, ok: true, live: true, source: 'health'})
    expect(probe.live_check).toMatchObject({ok: true, source: 'health'})
  })

  it('finds every skill answering POST {}: the kit validates the body before any payment step', async () => {
    expect(probe.skills).toEqual([
      {id: 'translate', url: `${host.url}/v1/translate`, answering: true, status: 400, card_match: '3/3'},
      {id: 'word-count', url: `${host.url}/v1/word-count`, answering: true, status: 400, card_match: '2/2'},
      {id: 'forecast', url: `${host.url}/v1/forecast`, answering: true, status: 400, card_match: null, card_match_skipped: 'paid'},
    ])
    // `{}` misses `city`: a 400 before the gate, so the probe ran no handler, asked the chain nothing and spent no allowance.
    expect(calls.filter((call) => call.skill === 'forecast')).toEqual([])
    expect(chain.calls).toEqual([])
    const next = await gate.admit({skillId: 'forecast', resource: '/v1/forecast', bodyHash: 'h', lamports: 2000n, caller: {pubkey: null, ip: '127.0.0.1'}, proof: null})
    expect(next).toMatchObject({kind: 'admitted', hold: {receipt: {via: 'allowance', allowanceLeft: 4}}})
  })

  it('sent only the skills\' own JSON examples, and stopped at the first full match', () => {
    // Skills are probed side by side, so only the set is fixed, not the order.
    expect([...calls].sort((a, b) => a.skill.localeCompare(b.skill))).toEqual([
      {skill: 'translate', input: {text: 'hello', to: 'fr'}},
      {skill: 'word-count', input: {text: 'to be or not to be'}},
    ])
  })
})
