/**
 * Tables of the cluster relay (migrations area `cluster`), in the same
 * database as the rest of mesh. Timestamps are epoch milliseconds; props are
 * JSON. The slug is unique among public clusters only (DECISIONS: Slug),
 * hence the partial unique index.
 */
import type {Migration} from '../../store/migrations.js'
import type {NodeTableNames} from '../../store/nodes/table.js'

export const CLUSTER_AREA = 'cluster'

/** The relay's node heartbeats and the member presence that hangs on them (src/store/nodes/). */
export const CLUSTER_NODE_TABLES: NodeTableNames = {nodes: 'cluster_nodes', presence: 'cluster_presence'}

const tables = (json: string, bigint: string, bool: string) => `
  CREATE TABLE clusters (
    cluster_id TEXT PRIMARY KEY,
    name TEXT,
    slug TEXT,
    visibility TEXT NOT NULL CHECK (visibility IN ('private', 'public')),
    topic TEXT,
    description TEXT,
    props ${json} NOT NULL,
    persist ${bool} NOT NULL,
    token_hash TEXT NOT NULL,
    admin_token_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX clusters_public_slug ON clusters (slug) WHERE visibility = 'public' AND slug IS NOT NULL;
  CREATE INDEX clusters_public_created ON clusters (created_at) WHERE visibility = 'public';
  CREATE TABLE cluster_creations (
    ip_key TEXT NOT NULL,
    at ${bigint} NOT NULL
  );
  CREATE INDEX cluster_creations_ip ON cluster_creations (ip_key, at);
  CREATE INDEX cluster_creations_at ON cluster_creations (at);
  CREATE TABLE cluster_nodes (
    node_id TEXT PRIMARY KEY,
    seen_at ${bigint} NOT NULL
  );
  CREATE TABLE cluster_presence (
    node_id TEXT NOT NULL,
    socket_id TEXT NOT NULL,
    cluster_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    did TEXT,
    vis TEXT NOT NULL,
    joined_at ${bigint} NOT NULL,
    PRIMARY KEY (node_id, socket_id)
  );
  CREATE INDEX cluster_presence_cluster ON cluster_presence (cluster_id);
`

export const SQLITE_CLUSTER_MIGRATIONS: Migration[] = [{area: CLUSTER_AREA, version: 1, sql: tables('TEXT', 'INTEGER', 'INTEGER')}]
export const POSTGRES_CLUSTER_MIGRATIONS: Migration[] = [{area: CLUSTER_AREA, version: 1, sql: tables('JSONB', 'BIGINT', 'BOOLEAN')}]
