import {describe, expect, it} from 'vitest'
import {createMemoryNonceStore} from '../../src/identity/nonce-store.js'

describe('memory nonce store', () => {
  it('refuses a live nonce and accepts it again after expiry', async () => {
    let now = 1000
    const store = createMemoryNonceStore({clock: () => now})
    expect(await store.useNonce('k', 2000)).toBe(true)
    expect(await store.useNonce('k', 2000)).toBe(false)
    now = 2000
    expect(await store.useNonce('k', 3000)).toBe(true)
  })
  it('refuses rather than forgets when full of live nonces', async () => {
    const store = createMemoryNonceStore({clock: () => 0, maxEntries: 2})
    expect(await store.useNonce('a', 10)).toBe(true)
    expect(await store.useNonce('b', 10)).toBe(true)
    expect(await store.useNonce('c', 10)).toBe(false)
  })
})
