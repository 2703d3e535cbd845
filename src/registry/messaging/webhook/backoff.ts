import {WEBHOOK_BACKOFF_BASE_MS, WEBHOOK_BACKOFF_MAX_MS} from '../constants.js'

/**
 * Wait before the next attempt after `failedAttempts` failures: 1 s, 2 s,
 * 4 s … doubled each time up to one hour, then ±20 % jitter so a receiver
 * coming back is not hit by every queued delivery in the same second.
 */
export function webhookBackoffMs(failedAttempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, failedAttempts - 1)
  const base = Math.min(WEBHOOK_BACKOFF_MAX_MS, WEBHOOK_BACKOFF_BASE_MS * 2 ** Math.min(exponent, 30))
  return Math.round(base * (0.8 + 0.4 * random()))
}
