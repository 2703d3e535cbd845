import {RECONNECT_BASE_MS, RECONNECT_JITTER, RECONNECT_MAX_MS} from './constants.js'

export interface BackoffOptions {
  /** First delay in ms (default RECONNECT_BASE_MS). */
  baseMs?: number
  /** Ceiling in ms (default RECONNECT_MAX_MS). */
  maxMs?: number
  /** Fraction of the delay that is randomised, 0..1 (default RECONNECT_JITTER). */
  jitter?: number
  /** Source of randomness in [0, 1); injected by tests. */
  random?: () => number
}

/** Reconnect delays: exponential with jitter, reset after a successful connect. */
export interface Backoff {
  /** Delay before the next attempt, in ms; each call moves one step up. */
  next(): number
  /** Attempts made since the last reset. */
  readonly attempt: number
  /** Back to the first step (call once connected). */
  reset(): void
}

/**
 * Exponential backoff with jitter: attempt n waits
 * `min(max, base·2ⁿ) · (1 − jitter·r)`, r uniform in [0, 1). The
 * randomised part keeps many clients from reconnecting in lockstep after a
 * relay restart (`server_shutdown`).
 */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const baseMs = options.baseMs ?? RECONNECT_BASE_MS
  const maxMs = options.maxMs ?? RECONNECT_MAX_MS
  const jitter = options.jitter ?? RECONNECT_JITTER
  const random = options.random ?? Math.random
  if (!(baseMs > 0) || !(maxMs >= baseMs)) throw new TypeError('backoff needs 0 < baseMs ≤ maxMs')
  if (!(jitter >= 0 && jitter <= 1)) throw new TypeError('backoff jitter must be between 0 and 1')
  let attempt = 0
  return {
    next() {
      // 2^attempt overflows to Infinity long after the ceiling is reached, and min() absorbs it.
      const ceiling = Math.min(maxMs, baseMs * 2 ** attempt)
      attempt += 1
      return Math.round(ceiling * (1 - jitter * random()))
    },
    get attempt() {
      return attempt
    },
    reset() {
      attempt = 0
    },
  }
}
