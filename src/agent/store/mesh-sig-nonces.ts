/**
 * Used Mesh-Sig nonces in the agent's own SQLite (area `agent_nonces`), so a
 * restarted agent still refuses a signed request it already served: with
 * the in-memory store, a request replayed within the 120 s skew after a
 * restart would be accepted again.
 */
import type {NonceStore} from '../../identity/nonce-store.js'
import type {Migration} from '../../store/migrations.js'
import type {SqliteDatabase} from '../../store/sqlite.js'

export const AGENT_NONCES_MIGRATIONS: Migration[] = [
  {
    area: 'agent_nonces',
    version: 1,
    sql: `
      CREATE TABLE agent_mesh_sig_nonces (nonce_key TEXT PRIMARY KEY, expires_ms INTEGER NOT NULL);
      CREATE INDEX agent_mesh_sig_nonces_expiry ON agent_mesh_sig_nonces (expires_ms);
    `,
  },
]

/** How often expired nonces are deleted; a claim already ignores expired rows. */
const PURGE_EVERY_MS = 60_000

/** A NonceStore over an open, migrated database (migrateSqlite with AGENT_NONCES_MIGRATIONS). */
export function createSqliteNonceStore(db: SqliteDatabase): NonceStore {
  // One statement claims a new key or takes over an expired one; a live one changes nothing.
  const claim = db.prepare(`INSERT INTO agent_mesh_sig_nonces (nonce_key, expires_ms) VALUES (?, ?)
    ON CONFLICT (nonce_key) DO UPDATE SET expires_ms = excluded.expires_ms WHERE agent_mesh_sig_nonces.expires_ms <= ?`)
  const purge = db.prepare('DELETE FROM agent_mesh_sig_nonces WHERE expires_ms <= ?')
  let lastPurgeMs = 0
  return {
    async useNonce(key, expiresAtMs, nowMs = Date.now()) {
      if (nowMs - lastPurgeMs >= PURGE_EVERY_MS) {
        lastPurgeMs = nowMs
        purge.run(nowMs)
      }
      return claim.run(key, expiresAtMs, nowMs).changes === 1
    },
  }
}
