/**
 * Tables of the registry area (prefixed `registry_` because every area shares
 * one database). JSON columns are TEXT in SQLite and JSONB in PostgreSQL;
 * times are integer milliseconds since the epoch.
 */
import type {Migration} from '../../store/migrations.js'

const AREA = 'registry'

export const REGISTRY_SQLITE_MIGRATIONS: Migration[] = [
  {
    area: AREA,
    version: 1,
    sql: `
      CREATE TABLE registry_agents (
        agent_id TEXT PRIMARY KEY,
        api_key_hash TEXT NOT NULL,
        pubkey TEXT,
        endpoint TEXT,
        capabilities TEXT NOT NULL DEFAULT '[]',
        agent_card TEXT,
        description TEXT,
        display_name TEXT,
        owner_class TEXT NOT NULL DEFAULT 'third-party',
        brand TEXT,
        created_at_ms INTEGER NOT NULL,
        last_seen_ms INTEGER,
        probe TEXT
      );
      CREATE INDEX registry_agents_last_seen ON registry_agents (last_seen_ms);
      CREATE TABLE registry_nonces (nonce_key TEXT PRIMARY KEY, expires_at_ms INTEGER NOT NULL);
      CREATE INDEX registry_nonces_expiry ON registry_nonces (expires_at_ms);
      CREATE TABLE registry_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    area: AREA,
    version: 2,
    // The heartbeat watermark moves to a narrow table of its own: every token call
    // rewrites it, and rewriting a ~40-byte row (and a page of the small table)
    // costs SQLite half of rewriting the agent's whole row with its card. No index
    // on last_seen_ms: keeping one current costs every heartbeat two more pages,
    // while the queries by watermark (the offline sweep every 5 s, probe targets)
    // scan this narrow table in about a millisecond per 10,000 agents.
    sql: `
      CREATE TABLE registry_heartbeats (
        agent_id TEXT PRIMARY KEY REFERENCES registry_agents (agent_id) ON DELETE CASCADE,
        last_seen_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO registry_heartbeats (agent_id, last_seen_ms)
        SELECT agent_id, last_seen_ms FROM registry_agents WHERE last_seen_ms IS NOT NULL;
      DROP INDEX registry_agents_last_seen;
      ALTER TABLE registry_agents DROP COLUMN last_seen_ms;
    `,
  },
]

export const REGISTRY_POSTGRES_MIGRATIONS: Migration[] = [
  {
    area: AREA,
    version: 1,
    sql: `
      CREATE TABLE registry_agents (
        -- byte order for keyset paging, the same as SQLite and the in-memory store
        agent_id TEXT COLLATE "C" PRIMARY KEY,
        api_key_hash TEXT NOT NULL,
        pubkey TEXT,
        endpoint TEXT,
        capabilities JSONB NOT NULL DEFAULT '[]',
        agent_card JSONB,
        description TEXT,
        display_name TEXT,
        owner_class TEXT NOT NULL DEFAULT 'third-party',
        brand TEXT,
        created_at_ms BIGINT NOT NULL,
        last_seen_ms BIGINT,
        probe JSONB
      );
      CREATE INDEX registry_agents_last_seen ON registry_agents (last_seen_ms);
      CREATE TABLE registry_nonces (nonce_key TEXT PRIMARY KEY, expires_at_ms BIGINT NOT NULL);
      CREATE INDEX registry_nonces_expiry ON registry_nonces (expires_at_ms);
      CREATE TABLE registry_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
]
