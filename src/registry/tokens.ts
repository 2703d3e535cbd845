/**
 * Agent JWTs (spec Authentication 1: api_key → 24 h JWT). HS256 with the
 * deployment's shared secret so any node verifies any node's token. The `kh`
 * claim pins the token to the api key it was minted from: rotating the key
 * (DECISIONS: lost api_key) revokes the tokens of the old one.
 */
import {SignJWT, jwtVerify} from 'jose'
import {unauthorized} from '../lib/errors.js'
import {TOKEN_ISSUER, TOKEN_TTL_SECONDS} from './constants.js'

/** How much of the api-key hash the token carries (enough to tell keys apart, not to guess one). */
const KEY_HINT_CHARS = 16

export const keyHint = (apiKeyHash: string) => apiKeyHash.slice(0, KEY_HINT_CHARS)

export interface MintedToken {
  token: string
  expiresAtMs: number
}

export interface TokenIssuer {
  mint(agentId: string, apiKeyHash: string): Promise<MintedToken>
  /** Returns the agent id and key hint; throws 401 `invalid_token`. */
  verify(token: string): Promise<{agentId: string; keyHint: string}>
}

export function createTokenIssuer(options: {secret: Uint8Array; clock: () => number; ttlSeconds?: number}): TokenIssuer {
  if (options.secret.length < 32) throw new TypeError('jwtSecret must be at least 32 bytes')
  const ttl = options.ttlSeconds ?? TOKEN_TTL_SECONDS
  return {
    async mint(agentId, apiKeyHash) {
      const iat = Math.floor(options.clock() / 1000)
      const token = await new SignJWT({kh: keyHint(apiKeyHash)})
        .setProtectedHeader({alg: 'HS256', typ: 'JWT'})
        .setSubject(agentId)
        .setIssuer(TOKEN_ISSUER)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(options.secret)
      return {token, expiresAtMs: (iat + ttl) * 1000}
    },
    async verify(token) {
      try {
        const {payload} = await jwtVerify(token, options.secret, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          currentDate: new Date(options.clock()),
        })
        if (typeof payload.sub !== 'string' || typeof payload.kh !== 'string') throw new Error('claims')
        return {agentId: payload.sub, keyHint: payload.kh}
      } catch (error) {
        const expired = (error as {code?: string}).code === 'ERR_JWT_EXPIRED'
        throw unauthorized(
          expired ? 'token_expired' : 'invalid_token',
          expired ? 'The token has expired; get a new one from /v1/agents/token' : 'The bearer token is not valid',
        )
      }
    },
  }
}
