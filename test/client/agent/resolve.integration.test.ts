/** resolveAgentUrl: URLs as given; agent ids through a real registry's directory and cached PublicCard, cached per process. */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {callAgent} from '../../../src/client/agent/call-agent.js'
import {createAgentCardCache, resolveAgentUrl} from '../../../src/client/agent/resolve.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {caught} from '../../support/caught.js'
import {serveRegistry, type ServedRegistry} from './served-registry.js'
import {startSkillAgent, type SkillAgent} from './skill-agent.js'

let registry: ServedRegistry
let agent: SkillAgent
let card: Record<string, unknown>
beforeAll(async () => {
  registry = await serveRegistry()
  agent = await startSkillAgent({basePath: '/a1'})
  card = (await (await fetch(`${agent.url}/.well-known/agent.json`)).json()) as Record<string, unknown>
  await registry.live('echoer', card)
  await registry.live('sleeper', null, 'https://sleeper.example')
  await registry.live('moved', {...card, url: 'not a url'}, 'https://moved.example/base/')
})
afterAll(async () => {
  await agent.close()
  await registry.close()
})

describe('resolveAgentUrl', () => {
  it('uses a URL as given, trailing slash trimmed, without asking a registry', async () => {
    expect(await resolveAgentUrl('https://agent.example/base/', {registry: 'http://127.0.0.1:1'})).toEqual({url: 'https://agent.example/base', agentId: null, registry: null, card: null})
  })

  it("resolves an id to its card's url through the registry; the call then goes to the agent directly", async () => {
    const resolved = await resolveAgentUrl('echoer', {registry: registry.url + '/', skill: 'echo', cache: createAgentCardCache()})
    expect(resolved).toMatchObject({url: agent.url, agentId: 'echoer', registry: registry.url})
    expect(resolved.card?.skills.map((skill) => skill.id)).toEqual(['echo', 'paid', 'strict'])
    const keys = generateIdentityKeyPair()
    const answer = await callAgent({agent: resolved.url, skill: 'echo', input: {via: 'registry'}, privateKey: keys.privateKeyPem})
    expect(answer).toMatchObject({status: 'ok', result: {echo: {via: 'registry'}, signer: keys.publicKey}})
  })

  it('asks the directory and the cached card once per process, and checks the skill each time', async () => {
    const cache = createAgentCardCache()
    const before = registry.paths.length
    await resolveAgentUrl('echoer', {registry: registry.url, skill: 'echo', cache})
    await resolveAgentUrl('echoer', {registry: registry.url, skill: 'paid', cache})
    expect(registry.paths.slice(before).sort()).toEqual(['/agent/echoer/.well-known/agent.json', '/v1/agents/echoer'])
    const unknown = await caught(resolveAgentUrl('echoer', {registry: registry.url, skill: 'draw', cache}))
    expect([unknown.kind, unknown.code]).toEqual(['not_found', 'unknown_skill'])
    expect(unknown.message).toBe('echoer has no skill "draw" in its card (skills: echo, paid, strict)')
  })

  it('an agent with no live card is not_live, naming its registered endpoint; a failed lookup is asked again', async () => {
    const cache = createAgentCardCache()
    const error = await caught(resolveAgentUrl('sleeper', {registry: registry.url, cache}))
    expect([error.kind, error.code]).toEqual(['not_found', 'not_live'])
    expect(error.message).toContain('sleeper is not live on')
    expect(error.message).toContain('https://sleeper.example')
    const before = registry.paths.length
    await caught(resolveAgentUrl('sleeper', {registry: registry.url, cache}))
    expect(registry.paths.length - before).toBe(2)
  })

  it("falls back to the registered endpoint when the card's url is unusable", async () => {
    expect((await resolveAgentUrl('moved', {registry: registry.url, cache: createAgentCardCache()})).url).toBe('https://moved.example/base')
  })

  it("an unknown id is the registry's agent_not_found; a malformed target or a missing registry is a usage error", async () => {
    const ghost = await caught(resolveAgentUrl('ghost', {registry: registry.url, cache: createAgentCardCache()}))
    expect([ghost.code, ghost.message]).toEqual(['agent_not_found', `No agent "ghost" is registered on ${registry.url}`])
    expect((await caught(resolveAgentUrl('no spaces here', {registry: registry.url}))).code).toBe('usage_agent_target')
    expect((await caught(resolveAgentUrl('ftp://agent.example', {registry: registry.url}))).code).toBe('usage_agent_target')
    expect((await caught(resolveAgentUrl('echoer', {}))).code).toBe('usage_registry_needed')
  })
})
