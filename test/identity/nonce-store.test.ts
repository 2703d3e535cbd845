import {describe, expect, it} from 'vitest'
import {createMemoryNonceStore} from '../../src/identity/nonce-store.js'
import {isMeshError} from '../../src/lib/errors.js'

describe('memory nonce store', () => {
  it('refuses a live nonce and accepts it again after expiry', async () => {
    let now = 1000
    const store = createMemoryNonceStore({clock: () => now})
    expect(await store.useNonce('k', 2000)).toBe(true)
    expect(await store.useNonce('k', 2000)).toBe(false)
    now = 2000
    expect(await store.useNonce('k', 3000)).toBe(true)
  })

  it('when full of live nonces answers 503 nonce_store_full, never "reused", and forgets none', async () => {
    const store = createMemoryNonceStore({clock: () => 0, maxEntries: 2})
    expect(await store.useNonce('a', 10)).toBe(true)
    expect(await store.useNonce('b', 10)).toBe(true)
    const full = await store.useNonce('c', 10).catch((error: unknown) => error)
    expect(isMeshError(full) && full.kind === 'unavailable' && full.code === 'nonce_store_full').toBe(true)
    expect(await store.useNonce('a', 10)).toBe(false)
  })

  it('makes room by dropping the nonces that expired', async () => {
    let now = 0
    const store = createMemoryNonceStore({clock: () => now, maxEntries: 2})
    expect(await store.useNonce('a', 10)).toBe(true)
    expect(await store.useNonce('b', 20)).toBe(true)
    now = 10
    expect(await store.useNonce('c', 30)).toBe(true)
    expect(await store.useNonce('b', 30)).toBe(false)
  })

  it('an expired key used again is remembered until its new expiry', async () => {
    let now = 0
    const store = createMemoryNonceStore({clock: () => now, maxEntries: 10})
    expect(await store.useNonce('a', 10)).toBe(true)
    expect(await store.useNonce('b', 100)).toBe(true)
    now = 50
    expect(await store.useNonce('a', 150)).toBe(true)
    now = 120
    expect(await store.useNonce('a', 220)).toBe(false)
  })
})
