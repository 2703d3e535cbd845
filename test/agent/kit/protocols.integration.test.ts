/**
 * Issue 24 interop: clients nobody here wrote call a kit agent's skills —
 * @a2a-js/sdk's client (1.0 JSON-RPC and the 0.3 legacy transport) from the
 * card URL, @modelcontextprotocol/sdk's client over Streamable HTTP — and
 * the /v1 rules (payment, Mesh-Sig) hold on both.
 */
import {Role, TaskState, type Message, type Task} from '@a2a-js/sdk'
import {ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory} from '@a2a-js/sdk/client'
import {parseLegacyAgentCard} from '@a2a-js/sdk/compat/v0_3/client'
import {Client as McpClient} from '@modelcontextprotocol/sdk/client/index.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {randomUUID} from 'node:crypto'
import {afterEach, describe, expect, it} from 'vitest'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {unauthorized} from '../../../src/lib/errors.js'
import type {CardSkill} from '../../../src/protocol/agent-card.js'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {challenge, echoHandler, echoSkill, fakeGate, keys, serveAgent, testCard, type ServedAgent} from './support.js'

const paidSkill: CardSkill = {...echoSkill, id: 'paid', pricing: {unit: 'request', amount: 1500, currency: 'lamports', network: 'solana-devnet'}}
const signedSkill: CardSkill = {...echoSkill, id: 'signed'}
/** A skill that serves signed callers only, as an agent requiring Mesh-Sig does. */
const signedOnly = (input: {text: string}, ctx: SkillContext) => {
  if (!ctx.caller.pubkey) throw unauthorized('signature_required', 'This skill needs a Mesh-Sig signed request')
  return {text: input.text, by: ctx.caller.pubkey}
}

let served: ServedAgent | undefined
const mcpClients: McpClient[] = []
afterEach(async () => {
  for (const client of mcpClients.splice(0)) await client.close()
  await served?.stop()
  served = undefined
})

async function serveAll(gate = fakeGate(() => challenge())) {
  served = await serveAgent({card: testCard({skills: [echoSkill, paidSkill, signedSkill]}), skills: {echo: echoHandler, paid: echoHandler, signed: signedOnly}, payments: gate.gate})
  return {served, log: gate.log}
}

const userMessage = (skill: string, input: unknown): Message => ({
  messageId: randomUUID(),
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{content: {$case: 'data', value: input}, mediaType: 'application/json', filename: '', metadata: {}}],
  metadata: {skill},
  extensions: [],
  referenceTaskIds: [],
})

/**
 * An A2A 0.3 client: it reads only the card's 0.3 fields (url, preferredTransport, protocolVersion), and the SDK's
 * JSON-RPC transport with legacy compatibility speaks 0.3 (`message/send`, no A2A-Version header) to such a card.
 */
async function legacyClient(url: string) {
  const {supportedInterfaces: _ignored, ...legacyFields} = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>
  const factory = new ClientFactory({transports: [new JsonRpcTransportFactory({legacyCompat: {enabled: true}})]})
  return factory.createFromAgentCard(parseLegacyAgentCard(legacyFields))
}

const dataOf = (message: Message) => message.parts.find((part) => part.content?.$case === 'data')?.content?.value

describe('A2A: @a2a-js/sdk client from the card URL', () => {
  it('declares the JSON-RPC endpoint for 1.0 and 0.3 and gets a skill answer with sendMessage on each', async () => {
    const {served} = await serveAll()
    const card = await new DefaultAgentCardResolver().resolve(served.url)
    expect(card.supportedInterfaces).toEqual([
      {url: served.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0'},
      {url: served.url, protocolBinding: 'JSONRPC', protocolVersion: '0.3'},
    ])
    const current = await new ClientFactory().createFromUrl(served.url)
    expect(current.protocolVersion).toBe('1.0')
    const answer = (await current.sendMessage({message: userMessage('echo', {text: 'hello'})} as never)) as Message
    expect(dataOf(answer)).toEqual({text: 'hello'})

    const legacy = await legacyClient(served.url)
    expect(legacy.protocolVersion).toMatch(/^0\.3/)
    const old = (await legacy.sendMessage({message: userMessage('echo', {text: 'old'})} as never)) as Message
    expect(dataOf(old)).toEqual({text: 'old'})
  })

  it('answers a paid skill with the x402 payment requirement and never runs it', async () => {
    const {served, log} = await serveAll()
    for (const client of [await new ClientFactory().createFromUrl(served.url), await legacyClient(served.url)]) {
      const task = (await client.sendMessage({message: userMessage('paid', {text: 'pay me'})} as never)) as Task
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      const metadata = task.status?.message?.metadata ?? {}
      expect(metadata['x402.payment.status']).toBe('payment-required')
      expect(metadata['x402.payment.required']).toMatchObject({accepts: [{payTo: 'Wallet1111', lamports: '1500'}]})
    }
    expect(log.commits).toBe(0)
    expect(log.admitted).toHaveLength(2)
  })

  it('runs a long call without waiting and shows the completed task to GetTask', async () => {
    const {served} = await serveAll()
    const client = await new ClientFactory().createFromUrl(served.url)
    const started = (await client.sendMessage({message: userMessage('echo', {text: 'later'}), configuration: {returnImmediately: true}} as never)) as Task
    expect(started.id).toBeTruthy()
    let task = await client.getTask({id: started.id} as never)
    for (let i = 0; i < 50 && task.status?.state !== TaskState.TASK_STATE_COMPLETED; i++) task = await client.getTask({id: started.id} as never)
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
    expect(task.artifacts[0].parts[0].content).toEqual({$case: 'data', value: {text: 'later'}})
  })

  it('serves the spec routes POST /tasks/send and GET /tasks/<id>', async () => {
    const {served} = await serveAll()
    const send = await fetch(`${served.url}/tasks/send`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({message: {kind: 'message', messageId: 'm1', role: 'user', parts: [{kind: 'data', data: {text: 'rest'}}], metadata: {skill: 'echo'}}, configuration: {blocking: false}}),
    })
    expect(send.status).toBe(200)
    const task = (await send.json()) as {kind: string; id: string}
    expect(task.kind).toBe('task')
    const got = await fetch(`${served.url}/tasks/${task.id}`)
    expect(got.status).toBe(200)
    expect(((await got.json()) as {id: string}).id).toBe(task.id)
    expect((await fetch(`${served.url}/tasks/nope`)).status).toBe(404)
  })
})

async function mcpClient(url: string, fetchImpl?: typeof fetch) {
  const client = new McpClient({name: 'test', version: '1.0.0'})
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), fetchImpl ? {fetch: fetchImpl} : undefined))
  mcpClients.push(client)
  return client
}

/** A fetch that signs each POST body with Mesh-Sig, as a signing MCP client would. */
const signingFetch: typeof fetch = (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : ''
  const headers = new Headers(init?.headers)
  headers.set('mesh-sig', signRequest({method: 'POST', path: '/mcp', body, privateKey: keys.privateKeyPem}))
  return fetch(input, {...init, headers})
}

describe('MCP: @modelcontextprotocol/sdk client over Streamable HTTP', () => {
  it('lists one tool per skill with the card schema and calls a free one', async () => {
    const {served} = await serveAll()
    const client = await mcpClient(served.url)
    const {tools} = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'paid', 'signed'])
    expect(tools[0]).toMatchObject({name: 'echo', description: echoSkill.description, inputSchema: echoSkill.inputSchema})
    const result = await client.callTool({name: 'echo', arguments: {text: 'hi'}})
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({text: 'hi'})
    const bad = await client.callTool({name: 'echo', arguments: {nope: 1}})
    expect(bad.isError).toBe(true)
    expect(bad._meta).toEqual({'mesh/http': {status: 400}})
  })

  it('refuses a paid tool with the 402 data and runs nothing', async () => {
    const {served, log} = await serveAll()
    const client = await mcpClient(served.url)
    const result = await client.callTool({name: 'paid', arguments: {text: 'hi'}})
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({accepts: [{payTo: 'Wallet1111', lamports: '1500'}]})
    expect((result._meta as any)['mesh/http']).toMatchObject({status: 402, headers: {'X-Payment-Amount': '1500'}})
    expect(log.commits).toBe(0)
  })

  it('applies Mesh-Sig as /v1 does: unsigned refused, badly signed refused, signed served', async () => {
    const {served} = await serveAll()
    const unsigned = await (await mcpClient(served.url)).callTool({name: 'signed', arguments: {text: 'hi'}})
    expect(unsigned.isError).toBe(true)
    expect(unsigned.structuredContent).toMatchObject({error: {code: 'signature_required'}})
    const forged: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers)
      headers.set('mesh-sig', 'v=1;keyid=x;sig=y')
      return fetch(input, {...init, headers})
    }
    // A forged signature is refused on the call that runs a skill (as on /v1, even a free one); listing runs none.
    const refused = await (await mcpClient(served.url, forged)).callTool({name: 'echo', arguments: {text: 'hi'}})
    expect(refused.isError).toBe(true)
    expect((refused._meta as any)['mesh/http'].status).toBe(401)
    const signed = await (await mcpClient(served.url, signingFetch)).callTool({name: 'signed', arguments: {text: 'hi'}})
    expect(signed.isError).toBeFalsy()
    expect(signed.structuredContent).toMatchObject({text: 'hi', by: keys.publicKey})
  })
})
