/**
 * A whole relay process: storage (SQLite in the data dir, or PostgreSQL),
 * the bus (in-process, or NATS for several nodes), the boards part, the relay,
 * and the HTTP server. `mesh serve relay` is a thin shell around this.
 * Heavy modules are imported here, lazily, so the CLI stays fast to start.
 */
import type {Bus} from '../bus/bus.js'
import type {MeshService} from '../http/service.js'
import type {Logger} from '../lib/log.js'
import type {ClusterStore} from './store/store.js'
import type {BoardStore} from './boards/store.js'
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

interface Storage {
  clusters: ClusterStore
  boards: BoardStore
  close(): Promise<void>
}

async function openStorage(options: RelayServerOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const {openPostgres} = await import('../store/postgres.js')
    const {createPostgresClusterStore} = await import('./store/postgres.js')
    const {createPostgresBoardStore} = await import('./boards/postgres.js')
    const pool = await openPostgres({url: options.databaseUrl, schema: options.databaseSchema})
    try {
      return {clusters: await createPostgresClusterStore(pool), boards: await createPostgresBoardStore(pool), close: () => pool.end()}
    } catch (error) {
      await pool.end().catch(() => {})
      throw error
    }
  }
  if (!options.dataDir) throw new TypeError('A relay server needs a dataDir (SQLite) or a databaseUrl (PostgreSQL)')
  const {openSqlite} = await import('../store/sqlite.js')
  const {createSqliteClusterStore} = await import('./store/sqlite.js')
  const {createSqliteBoardStore} = await import('./boards/sqlite.js')
  const db = openSqlite({dataDir: options.dataDir})
  return {clusters: createSqliteClusterStore(db), boards: createSqliteBoardStore(db), close: async () => void db.close()}
}

async function openBus(options: RelayServerOptions): Promise<Bus> {
  if (!options.natsUrl) return (await import('../bus/bus.js')).createLocalBus()
  const {createNatsBus} = await import('../bus/nats.js')
  return createNatsBus({url: options.natsUrl, prefix: options.natsPrefix, name: 'mesh-relay', logger: options.logger})
}

/** Opens everything and listens; resolves once the relay accepts connections. */
export async function startRelayServer(options: RelayServerOptions): Promise<RunningRelay> {
  const {serve} = await import('../http/host.js')
  const {createRelay} = await import('./relay.js')
  const {createClusterAccess} = await import('./access.js')
  const {createBoardsPart} = await import('./boards/part.js')

  const storage = await openStorage(options)
  let bus: Bus
  try {
    bus = await openBus(options)
  } catch (error) {
    await storage.close()
    throw error
  }
  const boards = createBoardsPart({clusters: createClusterAccess({store: storage.clusters}), store: storage.boards, logger: options.logger})

  // The relay builds `ws` URLs from the public URL, which (by default) is known only once the port is bound.
  let relay: RelayService | undefined
  const deferred: MeshService = {
    name: 'relay',
    // Requests in the instant before the relay exists fall through to a 404.
    middleware: (ctx, next) => (relay ? relay.middleware(ctx, next) : next()),
    upgrade: (request, socket, head) => relay?.upgrade?.(request, socket, head) ?? false,
    close: async () => relay?.close(),
  }
  let server: Awaited<ReturnType<typeof serve>>
  try {
    server = await serve({services: [deferred], logger: options.logger, port: options.port ?? 0, host: options.host, proxy: options.proxy})
  } catch (error) {
    await boards.close()
    await bus.close()
    await storage.close()
    throw error
  }
  const publicUrl = (options.publicUrl ?? server.url).replace(/\/+$/, '')
  relay = createRelay({store: storage.clusters, bus, logger: options.logger, publicUrl, limits: options.limits, boards, proxy: options.proxy})
  await relay.start?.()

  let stopping: Promise<void> | undefined
  return {
    url: server.url,
    port: server.port,
    publicUrl,
    relay,
    stop() {
      stopping ??= (async () => {
        await server.stop()
        await boards.close()
        await bus.close()
        await storage.close()
      })()
      return stopping
    },
  }
}
