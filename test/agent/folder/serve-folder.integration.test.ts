import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {signRequest, generateIdentityKeyPair} from '../../../src/identity/index.js'
import {loadAgentFolder, type AgentFolder} from '../../../src/agent/folder/load.js'
import {paidSkillIds, serveFolder} from '../../../src/agent/folder/serve-folder.js'
import {silentLogger} from '../../../src/lib/log.js'
import {REPO_ROOT} from '../../support/cli.js'

const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const load = (name: string) => loadAgentFolder(join(REPO_ROOT, 'examples', name))
const dataDir = mkdtempSync(join(tmpdir(), 'mesh-serve-folder-'))
afterAll(() => rmSync(dataDir, {recursive: true, force: true}))
const options = (folder: AgentFolder) => ({folder, port: 0, host: '127.0.0.1', dataDir, logger: silentLogger})

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error('expected serveFolder to refuse')
    },
    (error: unknown) => error as {code: string; message: string; field?: string},
  )
}

describe('serveFolder', () => {
  it('serves a free folder on a free port with url = the listening address, and stops', async () => {
    const served = await serveFolder(options(await load('echo')))
    try {
      expect(served.publicUrl).toBe(served.url)
      expect(served.replacedUrl).toBe('https://echo.example.com')
      expect(served.paidSkills).toEqual([])
      expect(served.card.url).toBe(served.url)
      const answer = await fetch(`${served.url}/v1/echo`, {method: 'POST', body: '{"message": "x"}'})
      expect(await answer.json()).toEqual({message: 'x'})
    } finally {
      await served.stop()
    }
    await expect(fetch(`${served.url}/health`)).rejects.toThrow()
  })

  it('names the paid skills; a paid folder without payments is a usage error', async () => {
    const paid = await load('paid')
    expect(paidSkillIds(paid.card)).toEqual(['word-count'])
    expect(await refusal(serveFolder(options(paid)))).toMatchObject({code: 'usage_wallet_required', message: expect.stringContaining('"word-count"')})
  })

  it('refuses what the kit cannot serve as one error naming agent.json: another currency, a fractional amount, a reserved id', async () => {
    const paid = await load('paid')
    const payments = {wallet: WALLET, network: 'solana-devnet', rpcUrl: 'http://127.0.0.1:9'}
    const usd = {...paid, card: {...paid.card, pricing: {unit: 'request', amount: 1, currency: 'USD'}}}
    expect(await refusal(serveFolder({...options(usd), payments}))).toMatchObject({code: 'agent_invalid', field: 'pricing.currency', message: expect.stringContaining('can only charge in lamports')})
    const fraction = {...paid, card: {...paid.card, skills: [{...paid.card.skills[0], pricing: {unit: 'request', amount: 1.5, currency: 'lamports'}}]}}
    expect(await refusal(serveFolder({...options(fraction), payments}))).toMatchObject({code: 'agent_invalid', field: 'skills[0].pricing.amount'})

    const echo = await load('echo')
    const reserved = {...echo, card: {...echo.card, skills: [{...echo.card.skills[0], id: 'whoami'}]}, handlers: {whoami: echo.handlers.echo}}
    const error = await refusal(serveFolder(options(reserved)))
    expect(error).toMatchObject({code: 'agent_invalid'})
    expect(error.message).toBe(`${echo.cardFile}: skill id "whoami" is reserved: the kit serves /v1/whoami itself`)
  })

  it('keeps used Mesh-Sig nonces in the data dir: a signed call replayed after a restart is refused', async () => {
    const folder = await load('echo')
    const body = '{"message": "once"}'
    const {privateKeyPem: privateKey} = generateIdentityKeyPair()
    const header = signRequest({method: 'POST', path: '/v1/echo', body, privateKey})
    const call = (url: string) => fetch(`${url}/v1/echo`, {method: 'POST', body, headers: {'content-type': 'application/json', 'mesh-sig': header}})
    const first = await serveFolder(options(folder))
    try {
      expect((await call(first.url)).status).toBe(200)
    } finally {
      await first.stop()
    }
    const second = await serveFolder(options(folder))
    try {
      const replay = await call(second.url)
      expect(replay.status).toBe(401)
      expect(await replay.json()).toMatchObject({error: {code: 'nonce_reused'}})
    } finally {
      await second.stop()
    }
  })

  it('checks Mesh-Sig v2 against the public URL; behind --proxy without one, against the address the proxy forwarded (issue 18)', async () => {
    const folder = await load('echo')
    const {privateKeyPem: privateKey} = generateIdentityKeyPair()
    const body = '{"message": "aud"}'
    const call = (url: string, audience: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/v1/echo`, {method: 'POST', body, headers: {'content-type': 'application/json', 'mesh-sig': signRequest({method: 'POST', path: '/v1/echo', body, privateKey, audience}), ...headers}})

    const listening = await serveFolder(options(folder))
    try {
      expect((await call(listening.url, listening.url)).status).toBe(200)
      expect(await (await call(listening.url, 'https://echo.example.com')).json()).toMatchObject({error: {code: 'wrong_audience'}})
    } finally {
      await listening.stop()
    }
    const published = await serveFolder({...options(folder), publicUrl: 'https://echo.example.net'})
    try {
      expect((await call(published.url, 'https://echo.example.net')).status).toBe(200)
      expect(await (await call(published.url, published.url)).json()).toMatchObject({error: {code: 'wrong_audience', message: `Mesh-Sig was signed for ${published.url}; this is https://echo.example.net`}})
    } finally {
      await published.stop()
    }
    const proxied = await serveFolder({...options(folder), proxy: true})
    try {
      const forwarded = {'x-forwarded-proto': 'https', 'x-forwarded-host': 'echo.example.org'}
      expect((await call(proxied.url, 'https://echo.example.org', forwarded)).status).toBe(200)
      expect(await (await call(proxied.url, proxied.url, forwarded)).json()).toMatchObject({error: {code: 'wrong_audience'}})
    } finally {
      await proxied.stop()
    }
  })
})
