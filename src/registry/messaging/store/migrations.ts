import type {Migration} from '../../../store/migrations.js'
import type {NodeTableNames} from '../../../store/nodes/table.js'

/** Migration area of the message bus; its tables live beside the registry's in the same database. */
export const MESSAGING_AREA = 'messaging'

/** Registry nodes' heartbeats and the agent sockets held on each (src/store/nodes/). */
export const MESSAGING_NODE_TABLES: NodeTableNames = {nodes: 'messaging_nodes', presence: 'messaging_presence'}

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

/**
 * SQLite: ids come from a one-row counter rather than the rowid, so live
 * (WebSocket) messages can take an id without a row and ids are never reused.
 */
export const SQLITE_MESSAGING_MIGRATIONS: Migration[] = [
  {
    area: MESSAGING_AREA,
    version: 1,
    sql:
      tables('INTEGER PRIMARY KEY', 'INTEGER') +
      `CREATE TABLE messaging_sequence (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
       INSERT INTO messaging_sequence (name, value) VALUES ('message', 0);`,
  },
]

/** PostgreSQL: a BIGSERIAL sequence (`messaging_messages_id_seq`) gives increasing ids shared by every node. */
export const POSTGRES_MESSAGING_MIGRATIONS: Migration[] = [{area: MESSAGING_AREA, version: 1, sql: tables('BIGSERIAL PRIMARY KEY', 'BIGINT')}]
