/**
 * A bounded LRU of tokens this node minted or already verified, so the
 * PATCH that follows every token call (spec "Heartbeat procedure") is
 * checked with a map lookup instead of another HMAC. An entry only says
 * "this exact string is authentic and carries these claims"; it is valid
 * until the token's `exp` and revocation is still decided by the caller
 * (the `kh` claim against the stored key hash).
 */

export interface CachedClaims {
  agentId: string
  keyHint: string
  /** The `exp` claim in ms; the entry is dropped at or after it (jose: expired when exp ≤ now). */
  expiresAtMs: number
}

export class VerifiedTokenCache {
  // A Map keeps insertion order: the first key is the least recently used.
  private readonly entries = new Map<string, CachedClaims>()

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new TypeError('token cache capacity must be a non-negative integer')
  }

  get size(): number {
    return this.entries.size
  }

  /** The claims of a cached token still valid at `nowMs`, else undefined (an expired entry is dropped). */
  get(token: string, nowMs: number): CachedClaims | undefined {
    const claims = this.entries.get(token)
    if (!claims) return undefined
    this.entries.delete(token)
    if (nowMs >= claims.expiresAtMs) return undefined
    this.entries.set(token, claims)
    return claims
  }

  set(token: string, claims: CachedClaims): void {
    if (this.capacity === 0) return
    this.entries.delete(token)
    this.entries.set(token, claims)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
  }

  /** Drops every token of an agent (its api key was rotated). */
  forgetAgent(agentId: string): void {
    for (const [token, claims] of this.entries) if (claims.agentId === agentId) this.entries.delete(token)
  }
}
