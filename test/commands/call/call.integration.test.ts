/**
 * `mesh call` (the built binary) against a real agent on a port and a real
 * registry: signed with the local identity key (proven by the agent's
 * verifier), a 402 shown readably with exit 3, the --proof retry, --json
 * shapes, bad --data, the agent's errors.
 */
import {execFile} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {identityKeyName, saveProfile} from '../../../src/agent/credentials.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {createFileSecretStore} from '../../../src/identity/secrets.js'
import {cliCommandLine, cliEnv, json, runCli} from '../../support/cli.js'
import {serveRegistry, type ServedRegistry} from '../../client/agent/served-registry.js'
import {startSkillAgent, txSignature, type SkillAgent} from '../../client/agent/skill-agent.js'

const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_CREDENTIALS_DIR: ''}
let root: string
let agent: SkillAgent
let registry: ServedRegistry
/** A credentials folder holding one registered agent, `alpha`, and its key. */
let creds: string
/** A credentials folder with nobody registered. */
let empty: string
const keys = generateIdentityKeyPair()

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mesh-call-'))
  agent = await startSkillAgent()
  registry = await serveRegistry()
  await registry.live('echoer', (await (await fetch(`${agent.url}/.well-known/agent.json`)).json()) as Record<string, unknown>)
  creds = join(root, 'creds')
  empty = join(root, 'empty')
  await createFileSecretStore(creds).set(identityKeyName('alpha'), keys.privateKeyPem)
  await saveProfile(creds, 'alpha', {registry: registry.url, pubkey: keys.publicKey, did: null, handle: `${registry.url}/agent/alpha`, secrets: 'file', registered_at: new Date().toISOString()})
})
afterAll(async () => {
  await agent.close()
  await registry.close()
  await rm(root, {recursive: true, force: true})
})

const mesh = (args: string[], options: {env?: Record<string, string>; input?: string} = {}) => runCli(args, {env: {...ENV, ...options.env}, input: options.input})
const lastCall = () => agent.calls.at(-1)!

describe('mesh call', () => {
  it('calls a skill signed with the registered identity key and prints the result as compact JSON in a pipe', async () => {
    const out = await mesh(['call', agent.url, 'echo', '--data', '{"text":"hi"}', '--credentials', creds])
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toBe(`{"echo":{"text":"hi"},"signer":"${keys.publicKey}","bearer":false}\n`)
    expect(out.stderr).toBe('')
    expect(lastCall().headers['mesh-sig']).toContain(keys.publicKey)
  })

  it('resolves an agent id through the registry (its cached card) and calls the agent directly', async () => {
    const out = await mesh(['call', 'echoer', 'echo', '--data', '{"via":"id"}', '--registry', registry.url, '--credentials', creds, '--json'])
    expect(out.code, out.stderr).toBe(0)
    expect(json(out)).toEqual({echo: {via: 'id'}, signer: keys.publicKey, bearer: false})
    const unknown = await mesh(['call', 'echoer', 'draw', '--registry', registry.url, '--no-sign'])
    expect(unknown.code).toBe(1)
    expect(unknown.errorText).toContain('echoer has no skill "draw" in its card (skills: echo, paid, strict)')
    expect((await mesh(['call', 'ghost', 'echo', '--registry', registry.url, '--no-sign'])).errorText).toContain('No agent "ghost" is registered')
  })

  it('without a local identity calls unsigned and says so on stderr; --no-sign says nothing', async () => {
    const out = await mesh(['call', agent.url, 'echo', '--credentials', empty])
    expect(out.code, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({echo: {}, signer: null, bearer: false})
    expect(out.stderr).toContain('no identity key here')
    expect(out.stderr).toContain('by your IP alone')
    const quiet = await mesh(['call', agent.url, 'echo', '--no-sign', '--credentials', creds])
    expect([quiet.code, quiet.stderr]).toEqual([0, ''])
    expect(lastCall().headers['mesh-sig']).toBeUndefined()
  })

  it('a 402 shows the challenge readably (lamports and SOL, address, network, nonce, pay URI, the retry command) and exits 3', async () => {
    const out = await mesh(['call', agent.url, 'paid', '--data', '{"text":"hi"}', '--credentials', creds])
    expect(out.code).toBe(3)
    expect(out.stdout).toBe('')
    const nonce = agent.nonces.at(-1)!
    expect(out.stderr).toContain(`Payment required: paid at ${agent.url} costs 1500000 lamports (0.0015 SOL).`)
    for (const line of [`network  solana-devnet`, `pay to   ${agent.wallet}`, `memo     ${nonce}`, `pay URI  solana:${agent.wallet}?amount=0.0015&memo=${nonce}`]) expect(out.stderr).toContain(line)
    expect(out.stderr).toContain(`mesh call ${agent.url} paid --data '{"text":"hi"}' --credentials ${creds} --proof <signature>`)
  })

  it('--proof retries with X-Payment-Proof: served when the agent accepts it, a fresh challenge (exit 3) when not', async () => {
    const proof = txSignature()
    agent.validProofs.add(proof)
    const paid = await mesh(['call', agent.url, 'paid', '--data', '{"text":"hi"}', '--credentials', creds, '--proof', proof])
    expect(paid.code, paid.stderr).toBe(0)
    expect(JSON.parse(paid.stdout)).toEqual({paid: true, signer: keys.publicKey, tx_proof: proof})
    expect(lastCall().headers['x-payment-proof']).toBe(proof)

    const refused = await mesh(['call', agent.url, 'paid', '--data', '{"text":"hi"}', '--no-sign', '--proof', txSignature()])
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain('the proof was not accepted for paid')
    expect(refused.stderr).toContain('not found on the chain')
    // The retry line drops the refused proof.
    expect(refused.stderr).toContain(`mesh call ${agent.url} paid --data '{"text":"hi"}' --no-sign --proof <signature>`)
  })

  it('--json: the result as is; a 402 as the challenge JSON, still exit 3', async () => {
    const ok = await mesh(['call', agent.url, 'strict', '--data', '{"text":"abc"}', '--no-sign', '--json'])
    expect([ok.code, ok.stdout]).toEqual([0, '{"length":3}\n'])
    const challenge = await mesh(['call', agent.url, 'paid', '--no-sign', '--json'])
    expect(challenge.code).toBe(3)
    expect(json(challenge)).toEqual({
      status: 'payment_required',
      agent: agent.url,
      skill: 'paid',
      proof_refused: false,
      challenge: expect.objectContaining({network: 'solana-devnet', address: agent.wallet, lamports: '1500000', sol: '0.0015', nonce: agent.nonces.at(-1), pay_url: expect.stringMatching(/^solana:/)}),
      retry: `mesh call ${agent.url} paid --no-sign --json --proof <signature>`,
    })
  })

  it('--data reads @file and @- (stdin); JSON that does not parse or a missing file is a usage error (exit 2)', async () => {
    const file = join(root, 'body.json')
    await writeFile(file, '{"text":"from a file"}')
    expect(JSON.parse((await mesh(['call', agent.url, 'echo', '--no-sign', '--data', `@${file}`])).stdout).echo).toEqual({text: 'from a file'})
    expect(JSON.parse((await mesh(['call', agent.url, 'echo', '--no-sign', '--data', '@-'], {input: '[1,2]'})).stdout).echo).toEqual([1, 2])
    const calls = agent.calls.length
    const bad = await mesh(['call', agent.url, 'echo', '--no-sign', '--data', '{text: hi}'])
    expect(bad.code).toBe(2)
    expect(bad.errorText).toContain('--data is not JSON')
    const missing = await mesh(['call', agent.url, 'echo', '--no-sign', '--data', '@/nonexistent/body.json', '--json'])
    expect(missing.code).toBe(2)
    expect(json(missing).error.code).toBe('usage_data_file')
    expect(agent.calls.length).toBe(calls)
  })

  it("another refusal shows the agent's code, message and field, exit 1", async () => {
    const out = await mesh(['call', agent.url, 'strict', '--data', '{"text":1}', '--no-sign'])
    expect(out.code).toBe(1)
    expect(out.errorText).toContain('The agent answered 400: text must be a string (field text)')
    expect(out.errorText).toContain('invalid_input')
    const asJson = await mesh(['call', agent.url, 'strict', '--data', '{}', '--no-sign', '--json'])
    expect(asJson.code).toBe(1)
    expect(json(asJson).error).toMatchObject({code: 'invalid_input', field: 'text'})
  })

  it('--credential-env sends the named variable as Authorization: Bearer and never prints it', async () => {
    const secret = 'sk-live-do-not-print'
    const out = await mesh(['call', agent.url, 'echo', '--no-sign', '--credential-env', 'PROVIDER_KEY'], {env: {PROVIDER_KEY: secret}})
    expect(out.code, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout).bearer).toBe(true)
    expect(lastCall().headers.authorization).toBe(`Bearer ${secret}`)
    expect(out.stdout + out.stderr).not.toContain(secret)
    const unset = await mesh(['call', agent.url, 'echo', '--no-sign', '--credential-env', 'NOT_SET_ANYWHERE'])
    expect(unset.code).toBe(2)
    expect(unset.errorText).toContain('NOT_SET_ANYWHERE (--credential-env) is not set')
  })

  it('usage errors: a proof that is not a signature, --agent with --no-sign, an unknown --agent, neither URL nor id', async () => {
    expect((await mesh(['call', agent.url, 'paid', '--no-sign', '--proof', 'abc'])).code).toBe(2)
    expect((await mesh(['call', agent.url, 'echo', '--no-sign', '--agent', 'alpha'])).code).toBe(2)
    const noKey = await mesh(['call', agent.url, 'echo', '--agent', 'beta', '--credentials', creds])
    expect(noKey.code).toBe(2)
    expect(noKey.errorText).toContain('No identity key for beta')
    expect((await mesh(['call', 'not an id', 'echo', '--no-sign'])).code).toBe(2)
  })

  it('on a terminal prints the result indented', async () => {
    // script(1) gives the command a pseudo-terminal; CI=false so mesh treats it as one a person reads.
    const line = cliCommandLine(['call', agent.url, 'echo', '--data', '{"text":"hi"}', '--no-sign'])
    const out = await new Promise<string>((resolve, reject) =>
      execFile('script', ['-qec', line, '/dev/null'], {env: cliEnv({...ENV, CI: 'false'})}, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    )
    expect(out.replace(/\r\n/g, '\n').trim()).toBe(JSON.stringify({echo: {text: 'hi'}, signer: null, bearer: false}, null, 2))
  })
})
