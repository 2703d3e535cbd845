import {rateLimited} from '../lib/errors.js'

export interface RateLimitOptions {
  /** Requests allowed per window. */
  limit: number
  windowMs: number
  /** Injected clock for tests. */
  now?: () => number
  /** Cap on distinct keys held, so a flood of addresses cannot grow memory without bound. */
  maxKeys?: number
}

export interface RateLimiter {
  /** Counts one hit for `key`; throws a rate_limited MeshError (429 + Retry-After) when over. */
  hit(key: string): void
  /** Counts one hit; returns seconds to wait when over the limit, else 0. */
  take(key: string): number
}

/**
 * Fixed-window counter per key (identity, IP, socket). Windows are aligned per
 * key on first hit; stale keys are dropped when the map grows past maxKeys.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 100_000
  const windows = new Map<string, {start: number; count: number}>()
  const take = (key: string): number => {
    const t = now()
    let entry = windows.get(key)
    if (!entry || t - entry.start >= options.windowMs) {
      if (!entry && windows.size >= maxKeys) {
        for (const [k, e] of windows) if (t - e.start >= options.windowMs) windows.delete(k)
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string)
      }
      entry = {start: t, count: 0}
      windows.set(key, entry)
    }
    entry.count++
    if (entry.count <= options.limit) return 0
    return Math.max(1, Math.ceil((entry.start + options.windowMs - t) / 1000))
  }
  return {
    take,
    hit(key) {
      const wait = take(key)
      if (wait > 0) throw rateLimited(`Too many requests; retry in ${wait} s`, wait)
    },
  }
}
