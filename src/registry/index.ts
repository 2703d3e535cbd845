/**
 * The agent registry (spec: registry and agent contract; docs/registry.md): public face of
 * src/registry. Parts (search, probe, messaging) live in their own folders
 * and are built from the RegistryContext. The agent side (clients, the
 * heartbeat loop, card files) is `mesh/client` (src/client/index.ts).
 */
export type * from './types.js'
export {REGISTRY_EVENTS_SUBJECT} from './types.js'
export * from './constants.js'
export {createRegistry, type RegistryOptions, type RegistryService} from './registry.js'
export {createRegistryContext, type CoreRegistryContext, type RegistryContextOptions} from './context.js'
export {buildRegistryServer, type RegistryServer, type RegistryServerConfig} from './compose.js'
export {createMemoryRegistryStore, type RegistryStore, type AgentPage, type ListAgentsQuery} from './store/store.js'
export {createSqliteRegistryStore} from './store/sqlite.js'
export {createPostgresRegistryStore} from './store/postgres.js'
export {REGISTRY_SQLITE_MIGRATIONS, REGISTRY_POSTGRES_MIGRATIONS} from './store/migrations.js'
export {decodeRegistryEvent} from './events.js'
export {directoryRecord, identityAttestation, isOnline, onlineSince, type DirectoryRecord} from './records.js'
