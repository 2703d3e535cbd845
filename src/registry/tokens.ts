/**
 * Agent JWTs (spec Authentication 1: api_key → 24 h JWT). HS256 with the
 * deployment's shared secret so any node verifies any node's token. The `kh`
 * claim pins the token to the api key it was minted from: rotating the key
 * (DECISIONS: lost api_key) revokes the tokens of the old one.
 *
 * Tokens are minted with node:crypto's HMAC in jose's exact format
 * (token-signer.ts) and verified by jose, with the secret imported as a
 * CryptoKey once (jose would import raw bytes on every call). Verified
 * tokens are remembered until their `exp` (token-cache.ts): the heartbeat's
 * PATCH presents the token the same node minted a moment before.
 */
import {webcrypto} from 'node:crypto'
import {jwtVerify} from 'jose'
import {unauthorized} from '../lib/errors.js'
import {TOKEN_CACHE_ENTRIES, TOKEN_ISSUER, TOKEN_TTL_SECONDS} from './constants.js'
import {VerifiedTokenCache} from './token-cache.js'
import {createTokenSigner} from './token-signer.js'

/** How much of the api-key hash the token carries (enough to tell keys apart, not to guess one). */
const KEY_HINT_CHARS = 16

export const keyHint = (apiKeyHash: string) => apiKeyHash.slice(0, KEY_HINT_CHARS)

export interface MintedToken {
  token: string
  expiresAtMs: number
}

export interface TokenIssuer {
  mint(agentId: string, apiKeyHash: string): MintedToken
  /** Returns the agent id and key hint; throws 401 `invalid_token` / `token_expired`. */
  verify(token: string): Promise<{agentId: string; keyHint: string}>
  /** Forgets the remembered tokens of an agent whose api key was rotated (the `kh` check refuses them anyway). */
  forgetAgent(agentId: string): void
}

export interface TokenIssuerOptions {
  secret: Uint8Array
  clock: () => number
  ttlSeconds?: number
  /** Verified tokens remembered (LRU); 0 verifies every token with HMAC. */
  cacheEntries?: number
}

export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  if (options.secret.length < 32) throw new TypeError('jwtSecret must be at least 32 bytes')
  const ttl = options.ttlSeconds ?? TOKEN_TTL_SECONDS
  const cache = new VerifiedTokenCache(options.cacheEntries ?? TOKEN_CACHE_ENTRIES)
  const sign = createTokenSigner(options.secret)
  const verifyKey = webcrypto.subtle.importKey('raw', options.secret, {name: 'HMAC', hash: 'SHA-256'}, false, ['verify'])

  return {
    mint(agentId, apiKeyHash) {
      const iat = Math.floor(options.clock() / 1000)
      const hint = keyHint(apiKeyHash)
      const token = sign({sub: agentId, kh: hint, iss: TOKEN_ISSUER, iat, exp: iat + ttl})
      const expiresAtMs = (iat + ttl) * 1000
      cache.set(token, {agentId, keyHint: hint, expiresAtMs})
      return {token, expiresAtMs}
    },
    async verify(token) {
      const now = options.clock()
      const cached = cache.get(token, now)
      if (cached) return {agentId: cached.agentId, keyHint: cached.keyHint}
      try {
        const {payload} = await jwtVerify(token, await verifyKey, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          currentDate: new Date(now),
        })
        if (typeof payload.sub !== 'string' || typeof payload.kh !== 'string') throw new Error('claims')
        // Only what mint() produces is remembered: a token bounded by exp and valid from the start.
        if (typeof payload.exp === 'number' && payload.nbf === undefined) {
          cache.set(token, {agentId: payload.sub, keyHint: payload.kh, expiresAtMs: payload.exp * 1000})
        }
        return {agentId: payload.sub, keyHint: payload.kh}
      } catch (error) {
        const expired = (error as {code?: string}).code === 'ERR_JWT_EXPIRED'
        throw unauthorized(
          expired ? 'token_expired' : 'invalid_token',
          expired ? 'The token has expired; get a new one from /v1/agents/token' : 'The bearer token is not valid',
        )
      }
    },
    forgetAgent(agentId) {
      cache.forgetAgent(agentId)
    },
  }
}
