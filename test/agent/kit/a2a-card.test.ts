import {describe, expect, it} from 'vitest'
import {a2aCardFromPublicCard} from '../../../src/agent/a2a-card.js'
import {echoSkill, testCard} from './support.js'

describe('a2aCardFromPublicCard', () => {
  it('keeps name, url, version, description and skills, and fills what A2A requires', () => {
    const card = testCard({documentationUrl: 'https://docs.example.com', skills: [{...echoSkill, tags: ['text']}, {...echoSkill, id: 'plain', inputModes: ['text/plain']}]})
    expect(a2aCardFromPublicCard(card)).toEqual({
      name: 'Kit Test Agent',
      description: 'An agent built with the kit, for tests.',
      version: '1.2.3',
      url: 'https://agent.example.com',
      supportedInterfaces: [],
      capabilities: {streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: []},
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      documentationUrl: 'https://docs.example.com',
      skills: [
        {id: 'echo', name: 'Echo', description: echoSkill.description, tags: ['text'], examples: echoSkill.examples, inputModes: ['application/json'], outputModes: ['application/json'], securityRequirements: []},
        {id: 'plain', name: 'Echo', description: echoSkill.description, tags: [], examples: echoSkill.examples, inputModes: ['text/plain'], outputModes: ['application/json'], securityRequirements: []},
      ],
      signatures: [],
    })
  })

  it('lists contact.a2a once per served version (1.0, 0.3), with the 0.3 fields naming it for older readers', () => {
    const a2a = a2aCardFromPublicCard(testCard({contact: {http: 'https://agent.example.com', a2a: 'https://agent.example.com/a2a'}}))
    expect(a2a.supportedInterfaces).toEqual([
      {url: 'https://agent.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0'},
      {url: 'https://agent.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3'},
    ])
    expect(a2a).toMatchObject({url: 'https://agent.example.com/a2a', protocolVersion: '0.3.0', preferredTransport: 'JSONRPC', additionalInterfaces: [{url: 'https://agent.example.com/a2a', transport: 'JSONRPC'}]})
    const v1 = a2aCardFromPublicCard(testCard({contact: {a2a: 'https://agent.example.com/a2a'}}), {protocolVersions: ['1.0'], protocolBinding: 'HTTP+JSON'})
    expect(v1.supportedInterfaces).toEqual([{url: 'https://agent.example.com/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0'}])
    expect(v1.protocolVersion).toBeUndefined()
    expect(v1.url).toBe('https://agent.example.com')
  })

  it('declares the A2A x402 extension when a skill is paid', () => {
    const paid = {...echoSkill, id: 'paid', pricing: {unit: 'request', amount: 1500, currency: 'lamports', network: 'solana-devnet'}}
    expect(a2aCardFromPublicCard(testCard({skills: [echoSkill, paid]})).capabilities.extensions).toEqual([
      {uri: 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2', description: expect.any(String), required: false},
    ])
  })

  it('passes a well-formed provider and iconUrl through and drops malformed ones', () => {
    expect(a2aCardFromPublicCard(testCard({provider: {organization: 'Acme', url: 'https://acme.example'}, iconUrl: 'https://acme.example/i.png'}))).toMatchObject({
      provider: {organization: 'Acme', url: 'https://acme.example'},
      iconUrl: 'https://acme.example/i.png',
    })
    expect(a2aCardFromPublicCard(testCard({provider: 'Acme'})).provider).toBeUndefined()
  })
})
