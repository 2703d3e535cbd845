import {describe, expect, it} from 'vitest'
import {createPayments} from '../../../src/agent/payments/gate.js'
import {resolvePaymentsOptions} from '../../../src/agent/payments/options.js'
import {openSqlite} from '../../../src/store/sqlite.js'

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const rpcUrl = 'http://127.0.0.1:8899'

describe('createPayments options', () => {
  it('fills the defaults: solana-devnet, 10 free calls, 2-minute scan, 10-minute nonces, 10 s RPC timeout, prepaid off', () => {
    expect(resolvePaymentsOptions({wallet, rpcUrl})).toMatchObject({
      network: 'solana-devnet',
      freePerDay: 10,
      lamportsPerCredit: null,
      label: 'mesh agent',
      topupIntervalMs: 120_000,
      nonceTtlMs: 600_000,
      rpcTimeoutMs: 10_000,
    })
  })

  it('takes freePerDay 0 and lamportsPerCredit as bigint, number or digits', () => {
    expect(resolvePaymentsOptions({wallet, rpcUrl, freePerDay: 0}).freePerDay).toBe(0)
    expect(resolvePaymentsOptions({wallet, rpcUrl, lamportsPerCredit: 5n}).lamportsPerCredit).toBe(5n)
    expect(resolvePaymentsOptions({wallet, rpcUrl, lamportsPerCredit: 5}).lamportsPerCredit).toBe(5n)
    expect(resolvePaymentsOptions({wallet, rpcUrl, lamportsPerCredit: '18446744073709551615'}).lamportsPerCredit).toBe(18446744073709551615n)
  })

  it.each([
    [{wallet: 'not-an-address'}, /wallet must be a Solana address/],
    [{wallet: undefined}, /wallet must be a Solana address/],
    [{rpcUrl: undefined}, /rpcUrl must be the http\(s\) URL/],
    [{rpcUrl: 'ftp://node'}, /rpcUrl must be the http\(s\) URL/],
    [{network: ''}, /network must be a non-empty name/],
    [{freePerDay: -1}, /freePerDay must be a whole number/],
    [{freePerDay: 1.5}, /freePerDay must be a whole number/],
    [{topupIntervalMs: 59_999}, /topupIntervalMs must be between 60000 and 300000/],
    [{topupIntervalMs: 300_001}, /topupIntervalMs must be between/],
    [{nonceTtlMs: 0}, /nonceTtlMs must be a positive/],
    [{rpcTimeoutMs: -5}, /rpcTimeoutMs must be a positive/],
    [{lamportsPerCredit: 0}, /lamportsPerCredit must be a positive integer/],
    [{lamportsPerCredit: '1.5'}, /lamportsPerCredit must be a positive integer/],
    [{dataDir: '/tmp/x', db: {} as never}, /dataDir or db, not both/],
  ])('refuses %o with a TypeError', (over, message) => {
    expect(() => createPayments({wallet, rpcUrl, ...over} as never)).toThrow(TypeError)
    expect(() => createPayments({wallet, rpcUrl, ...over} as never)).toThrow(message)
  })

  it('never closes a database it was given; closes the one it opened', async () => {
    const db = openSqlite()
    await createPayments({wallet, rpcUrl, db}).close()
    expect(db.open).toBe(true)
    db.close()
  })
})
