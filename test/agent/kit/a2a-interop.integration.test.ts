/** Issue 11 interop: a client nobody here wrote (@a2a-js/sdk) reads the kit's A2A card. */
import {ClientFactory, DefaultAgentCardResolver} from '@a2a-js/sdk/client'
import {afterEach, describe, expect, it} from 'vitest'
import {echoSkill, serveAgent, testCard, type ServedAgent} from './support.js'

let served: ServedAgent | undefined
afterEach(async () => {
  await served?.stop()
  served = undefined
})

describe('@a2a-js/sdk reads /.well-known/agent-card.json', () => {
  it('resolves name, url, version, description and skills (default and legacy-compatible resolvers)', async () => {
    served = await serveAgent({card: testCard({skills: [{...echoSkill, tags: ['text', 'demo']}]})})
    for (const resolver of [new DefaultAgentCardResolver(), new DefaultAgentCardResolver({legacyCompat: {enabled: true}})]) {
      const card = (await resolver.resolve(served.url)) as unknown as Record<string, unknown> & {skills: Record<string, unknown>[]}
      expect(card.name).toBe('Kit Test Agent')
      // The kit serves A2A at its base URL, which the served card names (here the listening address).
      expect(card.url).toBe(served.url)
      expect(card.version).toBe('1.2.3')
      expect(card.description).toBe('An agent built with the kit, for tests.')
      expect(card.defaultInputModes).toEqual(['application/json'])
      expect(card.skills).toHaveLength(1)
      expect(card.skills[0]).toMatchObject({id: 'echo', name: 'Echo', description: echoSkill.description, tags: ['text', 'demo'], examples: echoSkill.examples})
      expect(card.supportedInterfaces).toHaveLength(2)
    }
  })

  it('finds the JSON-RPC transport the kit declares', async () => {
    served = await serveAgent()
    const client = await new ClientFactory().createFromUrl(served.url)
    expect(client.protocolVersion).toBe('1.0')
  })
})
