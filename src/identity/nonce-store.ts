/**
 * Where used Mesh-Sig nonces are remembered. The registry's store implements
 * this across nodes; an agent on one process can use the in-memory one.
 */
import {MeshError} from '../lib/errors.js'

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
  /** Cap on remembered nonces so a flood cannot grow memory without bound. */
  maxEntries?: number
}

/** Default cap: 240 s of nonces at about 2,000 signed requests per second (~30 MB at most). */
export const DEFAULT_MEMORY_NONCE_CAP = 500_000

/**
 * A single-process NonceStore. Every key is kept for the same span (2 × the
 * skew), so insertion order is expiry order: expired entries are dropped
 * from the front of the Map, stopping at the first live one, in time
 * proportional to what is dropped. Full of live nonces, it answers 503
 * `nonce_store_full` rather than forget one (a forgotten nonce could be
 * replayed) or call a fresh nonce reused.
 */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): NonceStore {
  const clock = options.clock ?? Date.now
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_NONCE_CAP
  const seen = new Map<string, number>()
  const dropExpired = (now: number) => {
    for (const [key, expires] of seen) {
      if (expires > now) break
      seen.delete(key)
    }
  }
  return {
    async useNonce(key, expiresAtMs, nowMs = clock()) {
      dropExpired(nowMs)
      const expires = seen.get(key)
      if (expires !== undefined && expires > nowMs) return false
      // An expired key behind a live one: re-insert it at the back, where its new expiry belongs.
      seen.delete(key)
      if (seen.size >= maxEntries) {
        throw new MeshError('unavailable', 'nonce_store_full', 'Too many signed requests in the last few minutes; try again shortly', {details: {retry_after: 1}})
      }
      seen.set(key, expiresAtMs)
      return true
    },
  }
}
