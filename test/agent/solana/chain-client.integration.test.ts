import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createChainClient} from '../../../src/agent/solana/chain-client.js'
import {checkPayment} from '../../../src/agent/solana/check-payment.js'
import {lamportsTo, memosOf} from '../../../src/agent/solana/transaction.js'
import {caught} from '../../support/caught.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

let node: SolanaRpcServer
const wallet = randomAddress()
const payer = randomAddress()

beforeEach(async () => {
  node = await startSolanaRpc()
})
afterEach(async () => {
  await node.close()
})

describe('createChainClient', () => {
  it('reads a transaction jsonParsed at commitment confirmed, version 0, and the checker accepts it', async () => {
    const signature = node.addTransaction({payer, to: wallet, lamports: 1_500_000, memo: 'nonce-abc'})
    const chain = createChainClient({rpcUrl: node.url})
    const tx = await chain.getTransaction(signature)
    expect(node.callsOf('getTransaction')[0].params).toEqual([signature, {encoding: 'jsonParsed', commitment: 'confirmed', maxSupportedTransactionVersion: 0}])
    expect(tx?.transaction.signatures).toEqual([signature])
    // @solana/rpc hands integers over as bigint
    expect(lamportsTo(tx!, wallet)).toBe(1_500_000n)
    expect(memosOf(tx!)).toEqual(['nonce-abc'])
    expect(checkPayment(tx, {wallet, lamports: 1_500_000n, nonce: 'nonce-abc'})).toEqual({ok: true, paid: 1_500_000n})
  })

  it('answers null for an unknown or unconfirmed signature', async () => {
    const signature = node.addTransaction({payer, to: wallet, lamports: 1, confirmed: false})
    const chain = createChainClient({rpcUrl: node.url})
    expect(await chain.getTransaction(signature)).toBeNull()
    node.confirm(signature)
    expect(await chain.getTransaction(signature)).not.toBeNull()
  })

  it('lists signatures newest first, until a cursor, at commitment confirmed', async () => {
    const first = node.addTransaction({payer, to: wallet, lamports: 1})
    const second = node.addTransaction({payer, to: wallet, lamports: 2})
    const third = node.addTransaction({payer, to: wallet, lamports: 3})
    node.addTransaction({payer, to: randomAddress(), lamports: 4})
    const chain = createChainClient({rpcUrl: node.url})
    expect((await chain.getSignaturesForAddress(wallet)).map((entry) => entry.signature)).toEqual([third, second, first])
    expect((await chain.getSignaturesForAddress(wallet, {until: first})).map((entry) => entry.signature)).toEqual([third, second])
    expect((await chain.getSignaturesForAddress(wallet, {before: third, limit: 1})).map((entry) => entry.signature)).toEqual([second])
    expect(node.callsOf('getSignaturesForAddress')[0].params).toEqual([wallet, {commitment: 'confirmed', limit: 1000}])
  })

  it('turns a JSON-RPC error into 503 chain_unavailable with retry_after', async () => {
    node.fail('rpc_error')
    const error = await caught(createChainClient({rpcUrl: node.url}).getTransaction('5'.repeat(88)))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable', details: {retry_after: 5}})
    expect(error.message).not.toContain(node.url)
  })

  it('turns an HTTP 500 into 503 chain_unavailable', async () => {
    node.fail('http_500')
    const error = await caught(createChainClient({rpcUrl: node.url}).getSignaturesForAddress(wallet))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable', details: {retry_after: 5}})
  })

  it('gives up after the timeout and says so', async () => {
    node.fail('hang')
    const error = await caught(createChainClient({rpcUrl: node.url, timeoutMs: 200}).getTransaction('5'.repeat(88)))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable', details: {retry_after: 5}})
    expect(error.message).toContain('did not answer within 0.2 s')
  })

  it('turns a refused connection into 503 chain_unavailable', async () => {
    const url = node.url
    await node.close()
    node = await startSolanaRpc()
    const error = await caught(createChainClient({rpcUrl: url}).getTransaction('5'.repeat(88)))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable'})
  })
})
