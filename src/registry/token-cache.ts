/**
 * A bounded cache of tokens this node minted or already verified, so the
 * PATCH that follows every token call (spec "Heartbeat procedure") is
 * checked with a map lookup instead of another HMAC. An entry only says
 * "this exact string is authentic and carries these claims"; it is valid
 * until the token's `exp` and revocation is still decided by the caller
 * (the `kh` claim against the stored key hash).
 *
 * Least-recently-used eviction, approximated with two generations (no
 * per-hit reordering): entries fill the young map; when it holds half the
 * capacity it becomes the old one and the previous old map is dropped. A hit
 * in the old map moves the entry back to the young one.
 */

export interface CachedClaims {
  agentId: string
  keyHint: string
  /** The `exp` claim in ms; the entry is dropped at or after it (jose: expired when exp ≤ now). */
  expiresAtMs: number
}

export class VerifiedTokenCache {
  private young = new Map<string, CachedClaims>()
  private old = new Map<string, CachedClaims>()
  private readonly generation: number

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new TypeError('token cache capacity must be a non-negative integer')
    this.generation = Math.floor(capacity / 2)
  }

  /** Entries held (at most the capacity). */
  get size(): number {
    return this.young.size + this.old.size
  }

  /** The claims of a cached token still valid at `nowMs`, else undefined (an expired entry is dropped). */
  get(token: string, nowMs: number): CachedClaims | undefined {
    let claims = this.young.get(token)
    if (claims === undefined) {
      claims = this.old.get(token)
      if (claims === undefined) return undefined
      this.old.delete(token)
      if (nowMs < claims.expiresAtMs) this.set(token, claims)
    }
    if (nowMs < claims.expiresAtMs) return claims
    this.young.delete(token)
    return undefined
  }

  set(token: string, claims: CachedClaims): void {
    if (this.generation === 0) return
    this.young.set(token, claims)
    if (this.young.size >= this.generation) {
      this.old = this.young
      this.young = new Map()
    }
  }

  /** Drops every token of an agent (its api key was rotated). */
  forgetAgent(agentId: string): void {
    for (const generation of [this.young, this.old]) {
      for (const [token, claims] of generation) if (claims.agentId === agentId) generation.delete(token)
    }
  }
}
