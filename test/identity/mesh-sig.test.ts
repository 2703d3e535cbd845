import {describe, expect, it} from 'vitest'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {parseMeshSig, signRequest, signedString, verifyMeshSig} from '../../src/identity/mesh-sig.js'
import {createMemoryNonceStore} from '../../src/identity/nonce-store.js'
import {MeshError} from '../../src/lib/errors.js'

const NOW_MS = 1_800_000_000_000
const NOW_S = NOW_MS / 1000
const clock = () => NOW_MS

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(MeshError)
    expect((error as MeshError).kind).toBe('unauthorized')
    return (error as MeshError).code
  }
  throw new Error('expected a refusal')
}

function setup() {
  const keys = generateIdentityKeyPair()
  const nonces = createMemoryNonceStore({clock})
  const body = JSON.stringify({agent_id: 'alpha', capabilities: []})
  const header = signRequest({method: 'post', path: '/v1/agents/register?x=1', body, privateKey: keys.privateKeyPem, ts: NOW_S, nonce: 'nonce-0001'})
  const verifyWith = (over: Partial<Parameters<typeof verifyMeshSig>[0]> = {}) =>
    verifyMeshSig({header, method: 'POST', path: '/v1/agents/register?x=1', body, nonces, clock, ...over})
  return {keys, nonces, body, header, verifyWith}
}

describe('Mesh-Sig', () => {
  it('builds the signed string of the spec', () => {
    expect(signedString({method: 'get', path: '/a?b=1', ts: 5, nonce: 'n'})).toBe(
      'MS1\nGET\n/a?b=1\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n5\nn',
    )
  })
  it('verifies a good signature and returns the signer key', async () => {
    const {keys, verifyWith} = setup()
    await expect(verifyWith()).resolves.toMatchObject({pubkey: keys.publicKey, nonce: 'nonce-0001'})
  })
  it('accepts skew up to 120 s and refuses beyond', async () => {
    const {verifyWith} = setup()
    await expect(verifyWith({clock: () => NOW_MS + 120_000})).resolves.toBeTruthy()
    expect(await codeOf(setup().verifyWith({clock: () => NOW_MS + 121_000}))).toBe('signature_expired')
    expect(await codeOf(setup().verifyWith({clock: () => NOW_MS - 121_000}))).toBe('signature_expired')
  })
  it('refuses a replayed nonce', async () => {
    const {verifyWith} = setup()
    await verifyWith()
    expect(await codeOf(verifyWith())).toBe('nonce_reused')
  })
  it('does not consume the nonce of an invalid signature', async () => {
    const {verifyWith, body} = setup()
    expect(await codeOf(verifyWith({body: body + ' ' }))).toBe('invalid_signature')
    await expect(verifyWith()).resolves.toBeTruthy()
  })
  it('refuses a signature by another key', async () => {
    const {header, verifyWith} = setup()
    const other = generateIdentityKeyPair()
    const forged = header.split(' ')
    forged[1] = other.publicKey
    expect(await codeOf(verifyWith({header: forged.join(' ')}))).toBe('invalid_signature')
  })
  it('refuses a tampered body, path, query or method', async () => {
    expect(await codeOf(setup().verifyWith({body: '{"agent_id":"mallory","capabilities":[]}'}))).toBe('invalid_signature')
    expect(await codeOf(setup().verifyWith({path: '/v1/agents/register'}))).toBe('invalid_signature')
    expect(await codeOf(setup().verifyWith({path: '/v1/agents/register?x=2'}))).toBe('invalid_signature')
    expect(await codeOf(setup().verifyWith({method: 'PUT'}))).toBe('invalid_signature')
  })
  it('refuses malformed headers with invalid_signature_header', async () => {
    const {header, verifyWith} = setup()
    const parts = header.split(' ')
    for (const bad of ['', 'v1', 'v2 ' + parts.slice(1).join(' '), [parts[0], 'abc', ...parts.slice(2)].join(' '), [...parts.slice(0, 2), 'soon', ...parts.slice(3)].join(' '), [...parts.slice(0, 3), 'short', parts[4]].join(' '), [...parts.slice(0, 4), 'AAAA'].join(' ')]) {
      expect(await codeOf(verifyWith({header: bad}))).toBe('invalid_signature_header')
    }
  })
  it('parses what it signs', () => {
    const {header, keys} = setup()
    expect(parseMeshSig(header)).toMatchObject({pubkey: keys.publicKey, ts: NOW_S, nonce: 'nonce-0001'})
  })
})

describe('Mesh-Sig worked example (docs/registry.md)', () => {
  // RFC 8032 test 1 secret key: a fixed key makes Ed25519's deterministic signature a stable vector.
  const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n'
  const pubkey = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='
  const body = `{"agent_id":"alpha","capabilities":["translate"],"pubkey":"${pubkey}"}`
  it('signs to the documented header and verifies', async () => {
    const header = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: pem, ts: 1781524800, nonce: 'q3BvX1k9cL0mT2aR'})
    expect(header).toBe(
      `v1 ${pubkey} 1781524800 q3BvX1k9cL0mT2aR uIE5jF+Ry6Cg5HckOKoSyy7eu3sVqinMON8Ov4QUrR6Hw7x+hmnsbbBpBGsylVcuUbJJeV9UpQTYdPYHPsiKBg==`,
    )
    const nonces = createMemoryNonceStore()
    await expect(verifyMeshSig({header, method: 'POST', path: '/v1/agents/register', body, nonces, clock: () => 1781524800_000})).resolves.toMatchObject({pubkey})
  })
})
