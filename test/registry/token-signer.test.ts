import {randomBytes} from 'node:crypto'
import {jwtVerify, SignJWT} from 'jose'
import {describe, expect, it} from 'vitest'
import {createTokenSigner, type TokenClaims} from '../../src/registry/token-signer.js'
import {createTokenIssuer} from '../../src/registry/tokens.js'

const claims = (i: number): TokenClaims => ({sub: `agent-${i}`, kh: 'k'.repeat(16), iss: 'mesh-registry', iat: 1_780_000_000 + i, exp: 1_780_086_400 + i})

/** The token jose itself signs for these claims: the reference the registry's signer must match byte for byte. */
const signedByJose = (secret: Uint8Array, c: TokenClaims) =>
  new SignJWT({kh: c.kh}).setProtectedHeader({alg: 'HS256', typ: 'JWT'}).setSubject(c.sub).setIssuer(c.iss).setIssuedAt(c.iat).setExpirationTime(c.exp).sign(secret)

describe('token signer', () => {
  it('signs the same bytes as jose for the same claims', async () => {
    const secret = randomBytes(32)
    const sign = createTokenSigner(secret)
    for (const c of [claims(1), claims(2), {...claims(3), sub: 'ünïcode-is-refused-by-ids-but-signed-right'}]) {
      expect(sign(c)).toBe(await signedByJose(secret, c))
    }
  })
  it('makes tokens jose verifies with the secret, and refuses with another', async () => {
    const secret = randomBytes(32)
    const token = createTokenSigner(secret)(claims(7))
    const {payload, protectedHeader} = await jwtVerify(token, secret, {algorithms: ['HS256'], currentDate: new Date(1_780_000_010_000)})
    expect(protectedHeader).toEqual({alg: 'HS256', typ: 'JWT'})
    expect(payload).toEqual(claims(7))
    await expect(jwtVerify(token, randomBytes(32), {algorithms: ['HS256'], currentDate: new Date(1_780_000_010_000)})).rejects.toThrow()
  })
  it('mints tokens the issuer verifies without its memory of minted tokens', async () => {
    const secret = randomBytes(32)
    const minting = createTokenIssuer({secret, clock: () => 1_780_000_000_000})
    const verifying = createTokenIssuer({secret, clock: () => 1_780_000_000_000, cacheEntries: 0})
    const {token, expiresAtMs} = minting.mint('alpha', 'ab'.repeat(32))
    expect(expiresAtMs).toBe(1_780_000_000_000 + 24 * 3600 * 1000)
    expect(await verifying.verify(token)).toEqual({agentId: 'alpha', keyHint: 'ab'.repeat(8)})
  })
})
