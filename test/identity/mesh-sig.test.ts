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

describe('Mesh-Sig v2: bound to its audience (issue 18)', () => {
  const R1 = 'https://r1.example'
  const R2 = 'https://r2.example'
  function v2(audience: string | URL = R1, nonce = 'nonce-v2-0001') {
    const keys = generateIdentityKeyPair()
    const nonces = createMemoryNonceStore({clock})
    const body = '{"agent_id":"alpha"}'
    const header = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts: NOW_S, nonce, audience})
    const verifyAt = (audience: string | null | undefined, over: Partial<Parameters<typeof verifyMeshSig>[0]> = {}) =>
      verifyMeshSig({header, method: 'POST', path: '/v1/agents/register', body, nonces, clock, audience, ...over})
    return {keys, nonces, body, header, verifyAt}
  }

  it('builds the v2 signed string: MS2, the audience, then the v1 lines', () => {
    expect(signedString({method: 'get', path: '/a?b=1', ts: 5, nonce: 'n', audience: 'https://r1.example'})).toBe(
      'MS2\nhttps://r1.example\nGET\n/a?b=1\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n5\nn',
    )
  })
  it('carries the canonical audience as the sixth header field, whatever URL the signer was given', () => {
    const {header, keys} = v2('HTTPS://R1.example:443/v1/agents/register?x=1')
    expect(header.split(' ')).toHaveLength(6)
    expect(header.split(' ')[5]).toBe(R1)
    expect(parseMeshSig(header)).toMatchObject({version: 'v2', audience: R1, pubkey: keys.publicKey})
  })
  it('verifies at its audience and says so', async () => {
    const {keys, verifyAt} = v2()
    await expect(verifyAt(R1)).resolves.toMatchObject({pubkey: keys.publicKey, version: 'v2', audience: R1})
  })
  it('refuses at another server with wrong_audience, naming both, and does not consume the nonce', async () => {
    const {verifyAt} = v2()
    const refused = verifyAt(R2)
    await expect(refused).rejects.toMatchObject({code: 'wrong_audience', message: `Mesh-Sig was signed for ${R1}; this is ${R2}`})
    await expect(verifyAt(R1)).resolves.toBeTruthy()
  })
  it('refuses v2 at a server that does not know its audience (audience_unknown)', async () => {
    const {verifyAt} = v2()
    expect(await codeOf(verifyAt(undefined))).toBe('audience_unknown')
    expect(await codeOf(verifyAt(null))).toBe('audience_unknown')
  })
  it('refuses a header whose audience was swapped: the signature covers it', async () => {
    const {header, verifyAt} = v2()
    expect(await codeOf(verifyAt(R2, {header: header.replace(R1, R2)}))).toBe('invalid_signature')
  })
  it('refuses a v1 signature relabelled v2 with an audience', async () => {
    const keys = generateIdentityKeyPair()
    const body = '{}'
    const v1 = signRequest({method: 'POST', path: '/x', body, privateKey: keys.privateKeyPem, ts: NOW_S})
    const relabelled = `${v1.replace(/^v1/, 'v2')} ${R1}`
    expect(await codeOf(verifyMeshSig({header: relabelled, method: 'POST', path: '/x', body, nonces: createMemoryNonceStore({clock}), clock, audience: R1}))).toBe('invalid_signature')
  })
  it('keeps nonces per audience: one store serving two audiences takes the same nonce once at each', async () => {
    const keys = generateIdentityKeyPair()
    const nonces = createMemoryNonceStore({clock})
    const body = '{}'
    const at = async (audience: string) => {
      const header = signRequest({method: 'POST', path: '/x', body, privateKey: keys.privateKeyPem, ts: NOW_S, nonce: 'shared-nonce-01', audience})
      return verifyMeshSig({header, method: 'POST', path: '/x', body, nonces, clock, audience})
    }
    await expect(at(R1)).resolves.toBeTruthy()
    await expect(at(R2)).resolves.toBeTruthy()
    expect(await codeOf(at(R1))).toBe('nonce_reused')
  })
  it('still verifies v1 (the spec form), reporting no audience', async () => {
    const {verifyWith, keys} = setup()
    await expect(verifyWith({audience: R1})).resolves.toMatchObject({pubkey: keys.publicKey, version: 'v1', audience: null})
  })
  it('refuses a malformed or non-canonical audience field with invalid_signature_header', async () => {
    const {header, verifyAt} = v2()
    const fields = header.split(' ').slice(0, 5).join(' ')
    for (const audience of ['https://R1.example', 'https://r1.example/', 'https://r1.example:443', 'https://u@r1.example', 'ftp://r1.example', 'r1.example', `https://${'a'.repeat(300)}.example`]) {
      expect(await codeOf(verifyAt(R1, {header: `${fields} ${audience}`})), audience).toBe('invalid_signature_header')
    }
    expect(await codeOf(verifyAt(R1, {header: fields.replace(/^v1/, 'v2')}))).toBe('invalid_signature_header')
  })
  it('refuses to sign for what cannot be an audience', () => {
    const keys = generateIdentityKeyPair()
    expect(() => signRequest({method: 'GET', path: '/', privateKey: keys.privateKeyPem, audience: 'https://user:pw@r1.example'})).toThrow(/user name or password/)
  })
})

describe('Mesh-Sig v2 worked example (docs/registry.md)', () => {
  const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n'
  const pubkey = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='
  const body = `{"agent_id":"alpha","capabilities":["translate"],"pubkey":"${pubkey}"}`
  it('signs to the documented header and verifies at https://registry.example only', async () => {
    const header = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: pem, ts: 1781524800, nonce: 'q3BvX1k9cL0mT2aR', audience: 'https://registry.example'})
    expect(header).toBe(
      `v2 ${pubkey} 1781524800 q3BvX1k9cL0mT2aR 4u3h2R2ZVLSkIcSjN0ilUHRbYgz4gaktERbMazFZOLpvKnzBBJRA8i184K9T94WytyKKk8XK75KX49l3E66rDQ== https://registry.example`,
    )
    const nonces = createMemoryNonceStore()
    const verify = (audience: string) => verifyMeshSig({header, method: 'POST', path: '/v1/agents/register', body, nonces, clock: () => 1781524800_000, audience})
    await expect(verify('https://registry2.example')).rejects.toMatchObject({code: 'wrong_audience'})
    await expect(verify('https://registry.example')).resolves.toMatchObject({pubkey, audience: 'https://registry.example'})
  })
})
