import {describe, expect, it} from 'vitest'
import {createAgent} from '../../../src/agent/kit/create-agent.js'
import type {CreateAgentOptions} from '../../../src/agent/kit/types.js'
import {echoHandler, echoSkill, fakeGate, testCard} from './support.js'

const build = (options: Partial<CreateAgentOptions>) => () => createAgent({card: testCard(), skills: {echo: echoHandler}, ...options} as CreateAgentOptions)
const paid = {...echoSkill, id: 'paid', pricing: {unit: 'request', amount: 1500, currency: 'lamports', network: 'solana-devnet'}}

describe('createAgent', () => {
  it('returns a MeshService with the frozen card, the A2A card, the agent id and the skill ids', () => {
    const card = testCard()
    const agent = createAgent({card, skills: {echo: echoHandler}})
    expect(agent.name).toBe('agent')
    expect(typeof agent.middleware).toBe('function')
    // issue 24: the served card declares the kit's A2A and MCP endpoints.
    expect(agent.card).toEqual({...card, protocols: ['http', 'a2a', 'mcp'], contact: {a2a: 'https://agent.example.com', mcp: 'https://agent.example.com/mcp'}})
    expect(Object.isFrozen(agent.card) && Object.isFrozen(agent.card.skills[0])).toBe(true)
    card.name = 'Changed later'
    expect(agent.card.name).toBe('Kit Test Agent')
    expect(agent.agentId).toBe('kit-test-agent')
    expect(agent.skillIds).toEqual(['echo'])
    expect(agent.a2aCard.name).toBe('Kit Test Agent')
    expect(createAgent({card: testCard(), skills: {echo: echoHandler}, agentId: 'a-1'}).agentId).toBe('a-1')
  })

  it('refuses a card that is not a valid PublicCard, naming what is wrong', () => {
    const {url: _url, ...noUrl} = testCard()
    expect(build({card: noUrl as never})).toThrow(TypeError)
    expect(build({card: noUrl as never})).toThrow(/not a valid PublicCard.*missing required key "url"/)
    expect(build({card: testCard({skills: [{...echoSkill, id: 'Not Kebab'}]})})).toThrow(/not a valid PublicCard.*skills\[0\]\.id/)
    expect(build({card: testCard({url: 'ftp://agent.example.com'})})).toThrow(/url/)
    expect(build({card: undefined as never})).toThrow(/`card` must be a PublicCard object/)
  })

  it('refuses a skill without a handler and a handler without a skill', () => {
    expect(build({skills: {}})).toThrow(/skill "echo" is on the card but has no handler/)
    expect(build({skills: {echo: echoHandler, extra: echoHandler}})).toThrow(/handler for "extra" but the card has no skill/)
    expect(build({skills: {echo: 'nope' as never}})).toThrow(/handler of skill "echo" is not a function/)
  })

  it('refuses duplicate and reserved skill ids', () => {
    expect(build({card: testCard({skills: [echoSkill, echoSkill]})})).toThrow(/lists skill "echo" twice/)
    const whoami = {...echoSkill, id: 'whoami'}
    expect(build({card: testCard({skills: [whoami]}), skills: {whoami: echoHandler}})).toThrow(/"whoami" is reserved/)
  })

  it('refuses a paid skill without payments, in another currency, or a fractional lamport amount', () => {
    expect(build({card: testCard({skills: [paid]}), skills: {paid: echoHandler}})).toThrow(/skill "paid" .* is paid \(1500 lamports\) but no `payments` gate/)
    const {gate} = fakeGate()
    const usd = testCard({pricing: {unit: 'request', amount: 0.01, currency: 'USD'}})
    expect(build({card: usd, payments: gate})).toThrow(/priced in "USD", but the kit can only charge in lamports/)
    const fraction = testCard({skills: [{...paid, pricing: {unit: 'request', amount: 1.5, currency: 'lamports'}}]})
    expect(build({card: fraction, skills: {paid: echoHandler}, payments: gate})).toThrow(/must be an integer/)
    expect(build({card: testCard({skills: [paid]}), skills: {paid: echoHandler}, payments: gate})).not.toThrow()
  })

  it('refuses audience options that contradict each other or cannot name the agent (issue 18)', () => {
    expect(build({publicUrl: 'https://agent.example.com', audienceFromRequest: true})).toThrow(/`publicUrl` or `audienceFromRequest`, not both/)
    expect(build({publicUrl: 'https://user:pw@agent.example.com'})).toThrow(/`publicUrl` cannot name the agent in Mesh-Sig v2 signatures: .*user name or password/)
    expect(build({audienceFromRequest: 'yes' as never})).toThrow(/`audienceFromRequest` must be a boolean/)
    expect(build({publicUrl: 'https://agent.example.com'})).not.toThrow()
    expect(build({audienceFromRequest: true})).not.toThrow()
  })

  it('refuses an input schema that does not compile and bad option types', () => {
    const broken = {...echoSkill, inputSchema: {type: 'object', properties: {text: {type: 'strin'}}}}
    expect(build({card: testCard({skills: [broken]})})).toThrow(/skill "echo" has an input schema that does not compile/)
    expect(build({bodyLimit: 0})).toThrow(/`bodyLimit` must be a positive integer/)
    expect(build({ready: true as never})).toThrow(/`ready` must be a function/)
    expect(build({payments: {} as never})).toThrow(/`payments` must be a PaymentGate/)
  })

  it('accepts input_schema (the other spelling) and a draft-07 schema with unknown keywords', async () => {
    const skill = {...echoSkill, inputSchema: undefined, input_schema: {$schema: 'http://json-schema.org/draft-07/schema#', type: 'object', 'x-ui': 1, required: ['text']}}
    expect(build({card: testCard({skills: [skill]})})).not.toThrow()
  })

  it('start() starts the gate and close() closes it once', async () => {
    const {gate, log} = fakeGate()
    const agent = createAgent({card: testCard({skills: [paid]}), skills: {paid: echoHandler}, payments: gate})
    await agent.start?.()
    await Promise.all([agent.close(), agent.close()])
    expect(log).toMatchObject({started: 1, closed: 1})
  })
})
