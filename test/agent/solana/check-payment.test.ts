import {describe, expect, it} from 'vitest'
import {checkPayment} from '../../../src/agent/solana/check-payment.js'
import {blockTimeMs, memosOf, nativeTransfers, type ParsedTransaction} from '../../../src/agent/solana/transaction.js'
import {isSolanaAddress} from '../../../src/agent/solana/address.js'
import {isTransactionSignature} from '../../../src/client/agent/transaction-signature.js'

const SYSTEM = '11111111111111111111111111111111'
const MEMO = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'
const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const payer = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const other = 'GvDMxPzN1sCj7L26YDK2HnMRXEQmQ2aemov8YBtPS7vR'

interface Shape {
  transfers?: Array<{to: string; lamports: number | bigint | string; type?: string; from?: string}>
  memo?: string | null
  memoIn?: 'top' | 'inner' | 'log'
  err?: unknown
  meta?: null
  blockTime?: number | null
}

/** A jsonParsed getTransaction answer, as the Solana RPC documentation shows one. */
function tx(shape: Shape = {}): ParsedTransaction {
  const transfers = (shape.transfers ?? [{to: wallet, lamports: 1000}]).map((t) => ({
    program: 'system',
    programId: SYSTEM,
    parsed: {type: t.type ?? 'transfer', info: {source: t.from ?? payer, destination: t.to, lamports: t.lamports}},
  }))
  const memo = shape.memo === undefined ? 'pay abc123' : shape.memo
  const memoInstruction = {program: 'spl-memo', programId: MEMO, parsed: memo}
  const top = memo !== null && (shape.memoIn ?? 'top') === 'top' ? [memoInstruction] : []
  const inner = memo !== null && shape.memoIn === 'inner' ? [{index: 0, instructions: [memoInstruction]}] : []
  const logs = memo !== null && shape.memoIn === 'log' ? [`Program log: Memo (len ${memo.length}): "${memo}"`] : []
  return {
    slot: 5,
    blockTime: shape.blockTime === undefined ? 1_700_000_000 : shape.blockTime,
    meta: shape.meta === null ? null : {err: shape.err ?? null, logMessages: logs, innerInstructions: inner},
    transaction: {signatures: ['sig'], message: {instructions: [...transfers, ...top]}},
  }
}

const expected = {wallet, lamports: 1000n, nonce: 'abc123'}

describe('checkPayment', () => {
  it('accepts a confirmed transfer of the price to the wallet with the nonce in the memo', () => {
    expect(checkPayment(tx(), expected)).toEqual({ok: true, paid: 1000n})
  })

  it('sums several transfers to the wallet, transferWithSeed and bigint or string amounts included', () => {
    const paid = tx({transfers: [{to: wallet, lamports: 400n}, {to: wallet, lamports: '300', type: 'transferWithSeed'}, {to: wallet, lamports: 300}, {to: other, lamports: 5000}]})
    expect(checkPayment(paid, expected)).toEqual({ok: true, paid: 1000n})
  })

  it('names each failed check, in order', () => {
    expect(checkPayment(null, expected)).toMatchObject({ok: false, failed: 'unconfirmed'})
    expect(checkPayment(tx({meta: null}), expected)).toMatchObject({ok: false, failed: 'unconfirmed'})
    expect(checkPayment(tx({err: {InstructionError: [0, {Custom: 1}]}}), expected)).toMatchObject({ok: false, failed: 'failed'})
    expect(checkPayment(tx({transfers: [{to: other, lamports: 1000}]}), expected)).toMatchObject({ok: false, failed: 'wrong_destination', paid: 0n})
    expect(checkPayment(tx({transfers: [{to: wallet, lamports: 999}]}), expected)).toMatchObject({ok: false, failed: 'short_amount', paid: 999n})
    expect(checkPayment(tx({memo: null}), expected)).toMatchObject({ok: false, failed: 'missing_memo'})
    expect(checkPayment(tx({memo: 'other-nonce'}), expected)).toMatchObject({ok: false, failed: 'memo_mismatch'})
    expect(checkPayment(tx(), {...expected, nonce: null})).toMatchObject({ok: false, failed: 'memo_mismatch'})
  })

  it('counts only system-program transfers (a token program "transfer" is not SOL)', () => {
    const token = tx()
    ;(token.transaction.message.instructions as unknown[]).splice(0, 1, {program: 'spl-token', programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', parsed: {type: 'transfer', info: {source: payer, destination: wallet, amount: '1000'}}})
    expect(checkPayment(token, expected)).toMatchObject({ok: false, failed: 'wrong_destination'})
  })

  it('reads the memo from an inner instruction or from the memo program log line', () => {
    expect(memosOf(tx({memoIn: 'inner'}))).toEqual(['pay abc123'])
    expect(memosOf(tx({memoIn: 'log'}))).toEqual(['pay abc123'])
    expect(checkPayment(tx({memoIn: 'inner'}), expected).ok).toBe(true)
    expect(checkPayment(tx({memoIn: 'log'}), expected).ok).toBe(true)
  })

  it('reads transfers and block time', () => {
    expect(nativeTransfers(tx())).toEqual([{source: payer, destination: wallet, lamports: 1000n}])
    expect(blockTimeMs(tx())).toBe(1_700_000_000_000)
    expect(blockTimeMs(tx({blockTime: null}))).toBeNull()
  })
})

describe('addresses and signatures', () => {
  it('accepts base58 32-byte addresses only', () => {
    expect(isSolanaAddress(wallet)).toBe(true)
    expect(isSolanaAddress(SYSTEM)).toBe(true)
    expect(isSolanaAddress('not-an-address')).toBe(false)
    expect(isSolanaAddress('0OIl' + wallet.slice(4))).toBe(false)
    expect(isSolanaAddress(42)).toBe(false)
  })

  it('accepts signature-shaped strings only', () => {
    expect(isTransactionSignature('5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW')).toBe(true)
    expect(isTransactionSignature('short')).toBe(false)
    expect(isTransactionSignature('0'.repeat(88))).toBe(false)
    expect(isTransactionSignature(null)).toBe(false)
  })
})
