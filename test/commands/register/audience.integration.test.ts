/**
 * issue 18, attack (a): a signed `register` made for one registry, replayed
 * to another within the 120 s skew, must not rotate the victim's api_key
 * there. Two real `mesh serve registry` processes with different public URLs;
 * the victim runs the real `mesh register` on both; R1's side is a recording
 * proxy (whoever runs or taps R1 sees the signed request) and replays it to R2.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {identityKeyName} from '../../../src/agent/credentials.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {createFileSecretStore} from '../../../src/identity/secrets.js'
import {json, runCli, startServer, type RunningServer} from '../../support/cli.js'
import {replay, startRecordingProxy, type RecordingProxy} from '../../support/recording-proxy.js'

const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const REGISTER = '/v1/agents/register'

let root: string
let creds: string
let r1Tap: RecordingProxy
let r1: RunningServer
let r2: RunningServer
/** The victim's api_key on R2, from its own `mesh register`. */
let r2ApiKey: string
let victimPubkey: string

const mesh = (args: string[]) => runCli(args, {env: ENV})
const tokenAt = (registry: string, apiKey: string) =>
  fetch(`${registry}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: 'victim', api_key: apiKey})})

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mesh-audience-'))
  creds = join(root, 'creds')
  // R1 sits behind the tap: its public URL is the tap's, as a registry behind a proxy.
  r1Tap = await startRecordingProxy()
  r1 = await startServer('registry', ['--data', join(root, 'r1'), '--public-url', r1Tap.url])
  r1Tap.target = r1.url
  r2 = await startServer('registry', ['--data', join(root, 'r2')])

  const atR1 = await mesh(['register', 'victim', '--registry', r1Tap.url, '--credentials', creds, '--json'])
  expect(atR1.code, atR1.stderr).toBe(0)
  const atR2 = await mesh(['register', 'victim', '--registry', r2.url, '--credentials', creds, '--json', '--show-api-key'])
  expect(atR2.code, atR2.stderr).toBe(0)
  const r2Answer = json(atR2)
  // the same identity key is bound on both registries
  expect(r2Answer).toMatchObject({verified: true, rotated: false, identity_key: 'reused', pubkey: json(atR1).pubkey})
  r2ApiKey = r2Answer.api_key
  victimPubkey = r2Answer.pubkey
})
afterAll(async () => {
  for (const server of [r1, r2]) await server?.stop()
  await r1Tap?.close()
  await rm(root, {recursive: true, force: true})
})

describe('a signed register replayed to another registry (issue 18, attack a)', () => {
  it('mesh register signs Mesh-Sig v2 naming the registry it talks to', () => {
    const header = r1Tap.requests.find((request) => request.path === REGISTER)!.headers['mesh-sig'] as string
    expect(header.split(' ')[0]).toBe('v2')
    expect(header.split(' ').at(-1)).toBe(r1Tap.url)
  })

  it('a rotation captured at R1 and replayed to R2 within the skew is refused (401 wrong_audience); the victim keeps its R2 api_key', async () => {
    const rotated = await mesh(['register', 'victim', '--registry', r1Tap.url, '--credentials', creds, '--json'])
    expect(rotated.code, rotated.stderr).toBe(0)
    expect(json(rotated)).toMatchObject({rotated: true})
    const captured = r1Tap.requests.filter((request) => request.method === 'POST' && request.path === REGISTER).at(-1)!

    const replayed = await replay(captured, r2.url)
    expect(replayed.status).toBe(401)
    expect(replayed.body.error).toMatchObject({code: 'wrong_audience', message: `Mesh-Sig was signed for ${r1Tap.url}; this is ${r2.url}`})
    expect(replayed.body.api_key).toBeUndefined()
    // naming R1 in the Host header does not help: R2 checks against its own public URL
    const spoofed = await replay(captured, r2.url, {host: new URL(r1Tap.url).host})
    expect([spoofed.status, spoofed.body.error.code]).toEqual([401, 'wrong_audience'])

    // no new key was issued at R2: the victim's key still mints tokens there
    expect((await tokenAt(r2.url, r2ApiKey)).status).toBe(200)
  })

  it('a v1-signed rotation from the bound key is refused at R2 (401 mesh_sig_v2_required); the api_key is untouched', async () => {
    const privateKey = (await createFileSecretStore(creds).get(identityKeyName('victim')))!
    for (const fields of [{agent_id: 'victim'}, {agent_id: 'victim', pubkey: victimPubkey}]) {
      const body = JSON.stringify(fields)
      const v1 = signRequest({method: 'POST', path: REGISTER, body, privateKey})
      const answer = await fetch(r2.url + REGISTER, {method: 'POST', headers: {'content-type': 'application/json', 'mesh-sig': v1}, body})
      expect(answer.status).toBe(401)
      const {error, api_key} = (await answer.json()) as {error: {code: string; message: string}; api_key?: string}
      expect(error.code).toBe('mesh_sig_v2_required')
      expect(error.message).toContain(`Binding a pubkey or rotating the api_key needs a Mesh-Sig v2 signature naming this registry (${r2.url})`)
      expect(api_key).toBeUndefined()
    }
    expect((await tokenAt(r2.url, r2ApiKey)).status).toBe(200)
  })

  it('a v1-signed pubkey binding is refused at R2 (401 mesh_sig_v2_required); no agent is created', async () => {
    const privateKey = (await createFileSecretStore(creds).get(identityKeyName('victim')))!
    const body = JSON.stringify({agent_id: 'victim-two', pubkey: victimPubkey})
    const v1 = signRequest({method: 'POST', path: REGISTER, body, privateKey})
    const answer = await fetch(r2.url + REGISTER, {method: 'POST', headers: {'content-type': 'application/json', 'mesh-sig': v1}, body})
    expect(answer.status).toBe(401)
    expect(((await answer.json()) as {error: {code: string; message: string}}).error).toMatchObject({code: 'mesh_sig_v2_required', message: expect.stringContaining('Binding a pubkey or rotating the api_key needs a Mesh-Sig v2 signature')})
    expect((await fetch(`${r2.url}/v1/agents/victim-two`)).status).toBe(404)
  })

  it('mesh serve registry --proxy without --public-url checks v2 against the address the proxy forwarded', async () => {
    const r3 = await startServer('registry', ['--data', join(root, 'r3'), '--proxy'])
    try {
      const signed = (agentId: string, audience: string) => {
        const keys = generateIdentityKeyPair()
        const body = JSON.stringify({agent_id: agentId, pubkey: keys.publicKey})
        return {body, sig: signRequest({method: 'POST', path: REGISTER, body, privateKey: keys.privateKeyPem, audience})}
      }
      const post = (request: {body: string; sig: string}, forwardedHost: string) =>
        fetch(r3.url + REGISTER, {method: 'POST', headers: {'content-type': 'application/json', 'mesh-sig': request.sig, 'x-forwarded-proto': 'https', 'x-forwarded-host': forwardedHost}, body: request.body})
      expect((await post(signed('behind-proxy', 'https://r3.example'), 'r3.example')).status).toBe(201)
      const elsewhere = await post(signed('elsewhere', 'https://r1.example'), 'r3.example')
      expect([elsewhere.status, ((await elsewhere.json()) as {error: {code: string}}).error.code]).toEqual([401, 'wrong_audience'])
    } finally {
      await r3.stop()
    }
  })
})
