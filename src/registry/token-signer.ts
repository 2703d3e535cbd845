/**
 * Mints the registry's HS256 JWTs with node:crypto's HMAC: about 4 µs a
 * token, where jose's SignJWT (WebCrypto's async job plus its claim
 * builders) costs about 25 µs of CPU, and every heartbeat mints one. The
 * compact form is built exactly as jose builds it (same header, same claim
 * order), so the bytes are identical (a test compares them) and jose
 * verifies every token (tokens.ts).
 */
import {createHmac, createSecretKey, type KeyObject} from 'node:crypto'

/** The claims of one agent token (spec Authentication 1; `kh` pins the api key). */
export interface TokenClaims {
  sub: string
  kh: string
  iss: string
  iat: number
  exp: number
}

const encode = (json: object) => Buffer.from(JSON.stringify(json), 'utf8').toString('base64url')

const PROTECTED_HEADER = encode({alg: 'HS256', typ: 'JWT'})

/** Returns a function that signs claims with `secret`; the key object is made once. */
export function createTokenSigner(secret: Uint8Array): (claims: TokenClaims) => string {
  const key: KeyObject = createSecretKey(secret)
  return (claims) => {
    // jose's order: the private claims given to SignJWT, then the setters' claims in call order.
    const input = `${PROTECTED_HEADER}.${encode({kh: claims.kh, sub: claims.sub, iss: claims.iss, iat: claims.iat, exp: claims.exp})}`
    return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`
  }
}
