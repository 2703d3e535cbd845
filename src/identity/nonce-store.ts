/**
 * Where used Mesh-Sig nonces are remembered. The registry's store implements
 * this across nodes; an agent on one process can use the in-memory one.
 */
export interface NonceStore {
  /**
   * Records `key` until `expiresAtMs`; true when it was new, false when it
   * was already used and has not expired. Must be atomic.
   */
  useNonce(key: string, expiresAtMs: number, nowMs?: number): Promise<boolean>
}

export interface MemoryNonceStoreOptions {
  /** Milliseconds clock; defaults to Date.now. */
  clock?: () => number
  /** Cap on remembered nonces so a flood cannot grow memory without bound (oldest expiry dropped first). */
  maxEntries?: number
}

/** A single-process NonceStore; expired entries are purged as it goes. */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): NonceStore {
  const clock = options.clock ?? Date.now
  const maxEntries = options.maxEntries ?? 100_000
  const seen = new Map<string, number>()
  const purge = (now: number) => {
    for (const [key, expires] of seen) if (expires <= now) seen.delete(key)
  }
  return {
    async useNonce(key, expiresAtMs, nowMs = clock()) {
      const expires = seen.get(key)
      if (expires !== undefined && expires > nowMs) return false
      if (seen.size >= maxEntries) {
        purge(nowMs)
        // Still full of live nonces: refuse rather than forget one (a forgotten nonce could be replayed).
        if (seen.size >= maxEntries) return false
      }
      seen.set(key, expiresAtMs)
      return true
    },
  }
}
