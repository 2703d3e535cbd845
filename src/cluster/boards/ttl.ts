/** Post lifetimes. spec Limits: ttl `24h`, `7d`, `30d`, `1y`, `forever`. */
import {TTL_MS, type PostTtl} from './constants.js'

/** When a post created at `createdAtMs` with `ttl` expires; null = never. */
export function expiresAt(createdAtMs: number, ttl: PostTtl): number | null {
  const lifetime = TTL_MS[ttl]
  return lifetime === null ? null : createdAtMs + lifetime
}

/** A post is live while now is before its expiry. */
export const isLive = (expiresAtMs: number | null, nowMs: number) => expiresAtMs === null || nowMs < expiresAtMs
