/**
 * The cluster relay (spec: cluster; docs/relay.md): REST catalog, one WebSocket
 * per member, several nodes over a Bus. Public face of src/cluster.
 */
export type * from './types.js'
export {createClusterAccess} from './access.js'
export {createMemoryClusterStore, type ClusterStore, type ClusterPatch, type NewCluster, type PresenceEntry} from './store/store.js'
export {DEFAULT_LIMITS, RELAY_PROTOCOL} from './constants.js'
export {createSqliteClusterStore} from './store/sqlite.js'
export {createPostgresClusterStore} from './store/postgres.js'
export {SQLITE_CLUSTER_MIGRATIONS, POSTGRES_CLUSTER_MIGRATIONS, CLUSTER_AREA} from './store/migrations.js'
export {createRelay} from './relay.js'
export {startRelayServer, type RelayServerOptions, type RunningRelay} from './server.js'
