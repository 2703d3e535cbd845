import {describe, expect, it} from 'vitest'
import {solanaPayUrl} from '../../src/protocol/solana-pay.js'

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

describe('solanaPayUrl', () => {
  it('writes the amount in SOL exactly, the nonce as memo and the label percent-encoded', () => {
    expect(solanaPayUrl({recipient: wallet, lamports: 1_500_000n, memo: 'n0nce', label: 'Paid echo & co'})).toBe(
      `solana:${wallet}?amount=0.0015&memo=n0nce&label=Paid%20echo%20%26%20co`,
    )
  })

  it('never rounds: one lamport and whole SOL', () => {
    expect(solanaPayUrl({recipient: wallet, lamports: 1n, memo: 'm'})).toBe(`solana:${wallet}?amount=0.000000001&memo=m`)
    expect(solanaPayUrl({recipient: wallet, lamports: 2_000_000_000n, memo: 'm'})).toBe(`solana:${wallet}?amount=2&memo=m`)
    expect(solanaPayUrl({recipient: wallet, lamports: 123_456_789_012_345_678n, memo: 'm'})).toContain('amount=123456789.012345678&')
  })

  it('round-trips through URL parsing', () => {
    const url = new URL(solanaPayUrl({recipient: wallet, lamports: 10n, memo: 'a b/c', label: 'Ünïcode agent'}))
    expect(url.protocol).toBe('solana:')
    expect(url.pathname).toBe(wallet)
    expect(url.searchParams.get('memo')).toBe('a b/c')
    expect(url.searchParams.get('label')).toBe('Ünïcode agent')
  })
})
