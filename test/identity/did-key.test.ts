import {describe, expect, it} from 'vitest'
import {base58Decode, base58Encode} from '../../src/identity/base58.js'
import {didKeyFromPublicKey, publicKeyFromDidKey} from '../../src/identity/did-key.js'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'

// Published vector (did:key Ed25519 test data, e.g. ACA-Py's did tests):
// did:key:z6MkmjY8GnV5i9YTDtPETC2uUAW6ejw3nk5mXF5yci5ab7th ↔ publicKeyBase58 8HH5gYEeNc3z7PYXmd54d4x6qAfCNrqQqEB3nS7Zfu7K
const VECTOR_DID = 'did:key:z6MkmjY8GnV5i9YTDtPETC2uUAW6ejw3nk5mXF5yci5ab7th'
const VECTOR_KEY_BASE58 = '8HH5gYEeNc3z7PYXmd54d4x6qAfCNrqQqEB3nS7Zfu7K'

describe('base58btc', () => {
  it('encodes known values (Bitcoin alphabet, leading zeros as 1)', () => {
    expect(base58Encode(Buffer.from('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U')
    expect(base58Encode(Uint8Array.of(0, 0, 1))).toBe('112')
    expect(base58Encode(new Uint8Array(0))).toBe('')
  })
  it('round-trips and rejects foreign characters', () => {
    const bytes = Uint8Array.of(0, 255, 1, 2, 3, 0, 9)
    expect([...base58Decode(base58Encode(bytes))]).toEqual([...bytes])
    expect(() => base58Decode('0OIl')).toThrow(TypeError)
  })
})

describe('did:key', () => {
  it('matches the published Ed25519 vector both ways', () => {
    const raw = base58Decode(VECTOR_KEY_BASE58)
    expect(raw.length).toBe(32)
    const base64 = Buffer.from(raw).toString('base64')
    expect(didKeyFromPublicKey(base64)).toBe(VECTOR_DID)
    expect(publicKeyFromDidKey(VECTOR_DID)).toBe(base64)
  })
  it('every Ed25519 did:key starts with z6Mk', () => {
    const {publicKey} = generateIdentityKeyPair()
    const did = didKeyFromPublicKey(publicKey)
    expect(did.startsWith('did:key:z6Mk')).toBe(true)
    expect(publicKeyFromDidKey(did)).toBe(publicKey)
  })
  it('refuses malformed keys and other did forms', () => {
    expect(() => didKeyFromPublicKey('c2hvcnQ=')).toThrow(TypeError)
    expect(() => publicKeyFromDidKey('did:web:example.com')).toThrow(TypeError)
    // A secp256k1 did:key (multicodec 0xe7) is not an Ed25519 key.
    expect(() => publicKeyFromDidKey('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme')).toThrow(TypeError)
  })
})
