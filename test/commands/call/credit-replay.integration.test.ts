/**
 * issue 18, attack (b): a call signed for agent A, forwarded by A to agent B,
 * must not spend the caller's prepaid credit at B. Two agents built with the
 * kit and real payment gates over a local Solana JSON-RPC node; the caller
 * has credit at both and calls A with the real `mesh call`; A's side is a
 * recording proxy (A sees the signed request) that replays it to B.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {identityKeyName, saveProfile} from '../../../src/agent/credentials.js'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments, type Payments} from '../../../src/agent/payments/gate.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {createFileSecretStore} from '../../../src/identity/secrets.js'
import {silentLogger} from '../../../src/lib/log.js'
import {lamportsPricing, publicCard, textInputSchema} from '../../support/agent-card.js'
import {json, runCli} from '../../support/cli.js'
import {replay, startRecordingProxy, type RecordingProxy} from '../../support/recording-proxy.js'
import {serveAgent, type ServedAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_CREDENTIALS_DIR: ''}
const PRICE = 1_000_000

const card = (name: string, url: string) =>
  publicCard({
    name,
    url,
    description: 'Echoes text for 0.001 SOL a call; prepaid credit accepted.',
    protocols: ['http', 'x402'],
    pricing: lamportsPricing(PRICE),
    skills: [{id: 'echo', name: 'Echo', description: 'Answers {text}.', examples: ['Echo "hi".', '{"text": "hi"}'], inputSchema: textInputSchema()}],
  })

interface PaidAgent {
  served: ServedAgent
  gate: Payments
  wallet: string
  /** Where callers reach it (its public URL). */
  url: string
}

let root: string
let node: SolanaRpcServer
let aTap: RecordingProxy
let agentA: PaidAgent
let agentB: PaidAgent
let creds: string
const caller = generateIdentityKeyPair()

async function paidAgent(name: string, options: {publicUrl?: string; freePerDay: number}): Promise<PaidAgent> {
  const wallet = randomAddress()
  const gate = createPayments({wallet, rpcUrl: node.url, network: 'solana-devnet', freePerDay: options.freePerDay, lamportsPerCredit: PRICE, dataDir: join(root, name), rpcTimeoutMs: 2000})
  const skills = {echo: (input: {text: string}, ctx: SkillContext) => ({text: input.text, agent: name, paid_via: ctx.payment?.via ?? null})}
  const served = await serveAgent({card: card(name, options.publicUrl ?? 'http://127.0.0.1'), skills, payments: gate, publicUrl: options.publicUrl, logger: silentLogger})
  return {served, gate, wallet, url: options.publicUrl ?? served.url}
}

/** The caller asks to bind a payer address at the agent (signed v2, as a mesh client) and proves control with a first deposit of `credits` credits' worth carrying the issued memo. */
async function prepay(agent: PaidAgent, credits: number) {
  const payer = randomAddress()
  const body = JSON.stringify({payer_address: payer})
  const topup = await fetch(agent.url + '/v1/topup', {
    method: 'POST',
    headers: {'content-type': 'application/json', 'mesh-sig': signRequest({method: 'POST', path: '/v1/topup', body, privateKey: caller.privateKeyPem, audience: agent.url})},
    body,
  })
  expect(topup.status).toBe(200)
  const {challenge} = (await topup.json()) as {challenge: {memo: string}}
  node.addTransaction({payer, to: agent.wallet, lamports: credits * PRICE, memo: challenge.memo})
  expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: credits})
}

const mesh = (args: string[]) => runCli(args, {env: ENV})

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mesh-credit-replay-'))
  node = await startSolanaRpc()
  // A sits behind the tap: its public URL is the tap's. Neither agent gives free calls at first, so only credit pays.
  aTap = await startRecordingProxy()
  agentA = await paidAgent('agent-a', {publicUrl: aTap.url, freePerDay: 0})
  aTap.target = agentA.served.url
  agentB = await paidAgent('agent-b', {freePerDay: 1})
  await prepay(agentA, 2)
  await prepay(agentB, 2)
  creds = join(root, 'creds')
  await createFileSecretStore(creds).set(identityKeyName('caller'), caller.privateKeyPem)
  await saveProfile(creds, 'caller', {registry: 'http://127.0.0.1:9', pubkey: caller.publicKey, did: null, handle: 'http://127.0.0.1:9/agent/caller', secrets: 'file', registered_at: new Date().toISOString()})
})
afterAll(async () => {
  for (const agent of [agentA, agentB]) {
    await agent?.served.stop()
  }
  await aTap?.close()
  await node?.close()
  await rm(root, {recursive: true, force: true})
})

describe('a paid call forwarded to another agent (issue 18, attack b)', () => {
  it('mesh call signs v2 for A and spends one credit at A', async () => {
    const out = await mesh(['call', aTap.url, 'echo', '--data', '{"text":"for A"}', '--credentials', creds, '--json'])
    expect(out.code, out.stderr).toBe(0)
    expect(json(out)).toEqual({text: 'for A', agent: 'agent-a', paid_via: 'credit'})
    const header = aTap.requests.at(-1)!.headers['mesh-sig'] as string
    expect([header.split(' ')[0], header.split(' ').at(-1)]).toEqual(['v2', aTap.url])
    expect(agentA.gate.credits(caller.publicKey)).toBe(1)
  })

  it('the same call forwarded by A to B is refused at B (401 wrong_audience); the credit at B is untouched', async () => {
    const captured = aTap.requests.filter((request) => request.method === 'POST' && request.path === '/v1/echo').at(-1)!
    const forwarded = await replay(captured, agentB.url)
    expect(forwarded.status).toBe(401)
    expect(forwarded.body.error).toMatchObject({code: 'wrong_audience', message: `Mesh-Sig was signed for ${aTap.url}; this is ${agentB.url}`})
    // a Host header naming A does not help: B checks against its own public URL
    const spoofed = await replay(captured, agentB.url, {host: new URL(aTap.url).host})
    expect([spoofed.status, spoofed.body.error.code]).toEqual([401, 'wrong_audience'])
    expect(agentB.gate.credits(caller.publicKey)).toBe(2)
  })

  it('a v1-signed call never spends prepaid credit at B: the free allowance, then 402', async () => {
    const v1Call = (text: string) => {
      const body = JSON.stringify({text})
      return fetch(agentB.url + '/v1/echo', {method: 'POST', headers: {'content-type': 'application/json', 'mesh-sig': signRequest({method: 'POST', path: '/v1/echo', body, privateKey: caller.privateKeyPem})}, body})
    }
    const first = await v1Call('v1 one')
    expect([first.status, ((await first.json()) as {paid_via: string}).paid_via]).toEqual([200, 'allowance'])
    const second = await v1Call('v1 two')
    expect(second.status).toBe(402)
    await second.body?.cancel()
    expect(agentB.gate.credits(caller.publicKey)).toBe(2)
  })

  it('the credit at B is the caller\'s to spend with a call signed for B', async () => {
    const out = await mesh(['call', agentB.url, 'echo', '--data', '{"text":"for B"}', '--credentials', creds, '--json'])
    expect(out.code, out.stderr).toBe(0)
    expect(json(out)).toEqual({text: 'for B', agent: 'agent-b', paid_via: 'credit'})
    expect(agentB.gate.credits(caller.publicKey)).toBe(1)
  })
})
