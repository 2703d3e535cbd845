/**
 * A whole relay process: storage (openStorage: SQLite in the data dir, or
 * PostgreSQL), the bus (openBus: in-process, or NATS for several nodes), the
 * boards part, the relay, and the HTTP server. `mesh serve relay` is a thin
 * shell around this. Heavy modules are imported here, lazily, so the CLI
 * stays fast to start.
 */
import type {Logger} from '../lib/log.js'
import type {Storage} from '../store/open.js'
import type {RelayLimits, RelayService} from './types.js'

export interface RelayServerOptions {
  port?: number
  host?: string
  /** Public base URL; default: the address the server listens on. */
  publicUrl?: string
  /** SQLite data dir (file `<dataDir>/mesh.db`), used when no databaseUrl is given. */
  dataDir?: string
  /** postgres://… — several nodes share it. */
  databaseUrl?: string
  /** PostgreSQL schema (default public); created when missing. */
  databaseSchema?: string
  /** nats://… — fan-out between nodes. */
  natsUrl?: string
  /** Prefix of every NATS subject (default `mesh`), so deployments can share a NATS server. */
  natsPrefix?: string
  limits?: Partial<RelayLimits>
  /** Behind a reverse proxy: every per-IP limit (routes and socket upgrades) keys on the forwarded address. */
  proxy?: boolean
  logger: Logger
}

export interface RunningRelay {
  url: string
  port: number
  publicUrl: string
  relay: RelayService
  /** Closes sockets (`server_shutdown`), the server, then bus and storage. Idempotent. */
  stop(): Promise<void>
}

/** The relay's and the boards' stores on the opened database (each migrates its own tables). */
async function relayStores(storage: Storage) {
  if (storage.kind === 'postgres') {
    const [{createPostgresClusterStore}, {createPostgresBoardStore}] = await Promise.all([import('./store/postgres.js'), import('./boards/postgres.js')])
    return {clusters: await createPostgresClusterStore(storage.pool), boards: await createPostgresBoardStore(storage.pool)}
  }
  const [{createSqliteClusterStore}, {createSqliteBoardStore}] = await Promise.all([import('./store/sqlite.js'), import('./boards/sqlite.js')])
  return {clusters: createSqliteClusterStore(storage.db), boards: createSqliteBoardStore(storage.db)}
}

/** Opens everything and listens; resolves once the relay accepts connections. */
export async function startRelayServer(options: RelayServerOptions): Promise<RunningRelay> {
  if (!options.dataDir && !options.databaseUrl) throw new TypeError('A relay server needs a dataDir (SQLite) or a databaseUrl (PostgreSQL)')
  const [{serve}, {publicAddress}, {openStorage}, {openBus}, {createRelay}, {createClusterAccess}, {createBoardsPart}] = await Promise.all([
    import('../http/host.js'),
    import('../http/listen.js'),
    import('../store/open.js'),
    import('../bus/open.js'),
    import('./relay.js'),
    import('./access.js'),
    import('./boards/part.js'),
  ])
  const host = options.host ?? '127.0.0.1'
  // The relay builds `ws` URLs from the public URL: port and URL are settled before it is built.
  const {port, publicUrl} = await publicAddress({host, port: options.port ?? 0, publicUrl: options.publicUrl})
  const closers: Array<() => Promise<void>> = []
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch((error) => options.logger.warn('close failed', {error: String(error)}))
  }
  try {
    const storage = await openStorage({dataDir: options.dataDir ?? '', databaseUrl: options.databaseUrl, databaseSchema: options.databaseSchema})
    closers.push(() => storage.close())
    const stores = await relayStores(storage)
    const bus = await openBus({natsUrl: options.natsUrl, natsPrefix: options.natsPrefix, name: 'mesh-relay', logger: options.logger})
    closers.push(() => bus.close())
    const boards = createBoardsPart({clusters: createClusterAccess({store: stores.clusters}), store: stores.boards, logger: options.logger})
    closers.push(() => boards.close())
    const relay = createRelay({store: stores.clusters, bus, logger: options.logger, publicUrl, limits: options.limits, boards, proxy: options.proxy})
    const server = await serve({services: [relay], logger: options.logger, port, host, proxy: options.proxy})
    closers.push(() => server.stop())
    let stopping: Promise<void> | undefined
    return {url: server.url, port: server.port, publicUrl, relay, stop: () => (stopping ??= close())}
  } catch (error) {
    await close()
    throw error
  }
}
