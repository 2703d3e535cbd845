import type {Migration} from '../../../store/migrations.js'

/** Migration area of the message bus; its tables live beside the registry's in the same database. */
export const MESSAGING_AREA = 'messaging'

// One table holds every message in exactly one state (inbox | webhook | dead);
// times used for scheduling are epoch milliseconds, `ts` is the wire's ISO string.
const tables = (idColumn: string, bigint: string) => `
CREATE TABLE messaging_messages (
  id ${idColumn},
  to_agent TEXT NOT NULL,
  from_agent TEXT NOT NULL,
  payload TEXT NOT NULL,
  ts TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at ${bigint} NOT NULL DEFAULT 0,
  last_attempt_at ${bigint} NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX messaging_messages_by_agent ON messaging_messages (to_agent, state, id);
CREATE INDEX messaging_messages_due ON messaging_messages (state, next_attempt_at);
CREATE TABLE messaging_webhooks (
  agent_id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE messaging_nodes (
  node_id TEXT PRIMARY KEY,
  seen_at ${bigint} NOT NULL
);
CREATE TABLE messaging_presence (
  agent_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  since ${bigint} NOT NULL,
  PRIMARY KEY (agent_id, node_id)
);
CREATE INDEX messaging_presence_by_node ON messaging_presence (node_id);
`

/** SQLite: AUTOINCREMENT so ids are never reused, even after the newest message is consumed. */
export const SQLITE_MESSAGING_MIGRATIONS: Migration[] = [
  {area: MESSAGING_AREA, version: 1, sql: tables('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER')},
]

/** PostgreSQL: a BIGSERIAL sequence gives increasing ids shared by every node. */
export const POSTGRES_MESSAGING_MIGRATIONS: Migration[] = [{area: MESSAGING_AREA, version: 1, sql: tables('BIGSERIAL PRIMARY KEY', 'BIGINT')}]
