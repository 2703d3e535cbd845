import {randomBytes} from 'node:crypto'
import {SignJWT} from 'jose'
import {describe, expect, it} from 'vitest'
import {createLocalBus} from '../../src/bus/bus.js'
import {silentLogger} from '../../src/lib/log.js'
import {TOKEN_ISSUER} from '../../src/registry/constants.js'
import {createRegistryContext} from '../../src/registry/context.js'
import {hashApiKey} from '../../src/registry/service.js'
import {createMemoryRegistryStore} from '../../src/registry/store/store.js'
import {createTokenIssuer, keyHint} from '../../src/registry/tokens.js'

const HASH = 'ab'.repeat(32)

function issuer(options: {cacheEntries?: number; secret?: Uint8Array} = {}) {
  let now = Date.UTC(2026, 5, 15, 12, 0, 0)
  const secret = options.secret ?? randomBytes(32)
  const tokens = createTokenIssuer({secret, clock: () => now, cacheEntries: options.cacheEntries})
  return {tokens, secret, advance: (ms: number) => (now += ms), now: () => now}
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise
    return 'accepted'
  } catch (error) {
    return (error as {code?: string}).code
  }
}

describe('token issuer', () => {
  it('verifies its own tokens, with and without the cache, until exp (24 h)', async () => {
    for (const cacheEntries of [0, 100]) {
      const t = issuer({cacheEntries})
      const {token, expiresAtMs} = t.tokens.mint('alpha', HASH)
      expect(expiresAtMs).toBe(t.now() + 86_400_000)
      expect(await t.tokens.verify(token)).toEqual({agentId: 'alpha', keyHint: keyHint(HASH)})
      t.advance(86_400_000 - 1)
      expect(await t.tokens.verify(token)).toEqual({agentId: 'alpha', keyHint: keyHint(HASH)})
      t.advance(1)
      expect(await codeOf(t.tokens.verify(token))).toBe('token_expired')
    }
  })
  it('accepts a token minted by another node with the same secret, and refuses other secrets and tampering', async () => {
    const a = issuer()
    const b = issuer({secret: a.secret})
    const {token} = a.tokens.mint('alpha', HASH)
    expect((await b.tokens.verify(token)).agentId).toBe('alpha')
    expect((await b.tokens.verify(token)).agentId).toBe('alpha') // now from b's cache
    const stranger = issuer()
    expect(await codeOf(stranger.tokens.verify(token))).toBe('invalid_token')
    const [header, payload, signature] = token.split('.')
    const forged = Buffer.from(JSON.stringify({...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'mallory'})).toString('base64url')
    expect(await codeOf(a.tokens.verify(`${header}.${forged}.${signature}`))).toBe('invalid_token')
    expect(await codeOf(a.tokens.verify('not.a.token'))).toBe('invalid_token')
  })
  it('refuses a token without the claims mesh mints, even when signed with the secret', async () => {
    const t = issuer()
    const noHint = await new SignJWT({}).setProtectedHeader({alg: 'HS256'}).setSubject('alpha').setIssuer(TOKEN_ISSUER).setExpirationTime('1h').sign(t.secret)
    expect(await codeOf(t.tokens.verify(noHint))).toBe('invalid_token')
    const otherIssuer = await new SignJWT({kh: 'x'}).setProtectedHeader({alg: 'HS256'}).setSubject('alpha').setIssuer('elsewhere').setExpirationTime('1h').sign(t.secret)
    expect(await codeOf(t.tokens.verify(otherIssuer))).toBe('invalid_token')
  })
})

describe('authentication with remembered tokens', () => {
  async function twoNodes() {
    const store = createMemoryRegistryStore()
    const jwtSecret = randomBytes(32)
    const node = () => createRegistryContext({store, bus: createLocalBus(), logger: silentLogger, publicUrl: 'https://r.example', jwtSecret})
    const a = node()
    const b = node()
    await store.createAgent({agentId: 'alpha', apiKeyHash: hashApiKey('old-key'), pubkey: null, endpoint: null, capabilities: [], createdAtMs: 0})
    return {store, a, b}
  }
  it('refuses a token the minting node remembers once the key was rotated elsewhere', async () => {
    const {store, a, b} = await twoNodes()
    const {token} = a.tokens.mint('alpha', hashApiKey('old-key'))
    expect(await a.authenticate(`Bearer ${token}`)).toBe('alpha')
    expect(await b.authenticate(`Bearer ${token}`)).toBe('alpha')
    // Node b rotates the key (DECISIONS: lost api_key); node a still has the token in its cache.
    await store.updateAgent('alpha', {apiKeyHash: hashApiKey('new-key')})
    for (const node of [a, b]) expect(await codeOf(node.authenticate(`Bearer ${token}`))).toBe('invalid_token')
    const fresh = a.tokens.mint('alpha', hashApiKey('new-key'))
    expect((await b.authenticateAgent(`Bearer ${fresh.token}`)).agentId).toBe('alpha')
  })
  it('forgets the remembered tokens of a rotated agent on the rotating node', async () => {
    const {a} = await twoNodes()
    const {token} = a.tokens.mint('alpha', hashApiKey('old-key'))
    a.tokens.forgetAgent('alpha')
    // Still valid by signature (the kh check is what revokes it), verified afresh.
    expect((await a.tokens.verify(token)).agentId).toBe('alpha')
  })
})
