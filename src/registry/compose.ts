/**
 * buildRegistryServer: everything `mesh serve registry` runs, assembled from
 * a config — database (openStorage: SQLite file or PostgreSQL), bus (openBus:
 * local or NATS), the registry with its parts (search, probe, messaging), and
 * the cluster relay on the same database and bus. The command only parses
 * flags and serves.
 */
import {mkdir} from 'node:fs/promises'
import {openBus} from '../bus/open.js'
import {createBoardsPart} from '../cluster/boards/part.js'
import {createPostgresBoardStore} from '../cluster/boards/postgres.js'
import {createSqliteBoardStore} from '../cluster/boards/sqlite.js'
import {createClusterAccess} from '../cluster/access.js'
import {createRelay} from '../cluster/relay.js'
import {createPostgresClusterStore} from '../cluster/store/postgres.js'
import {createSqliteClusterStore} from '../cluster/store/sqlite.js'
import type {RelayLimits} from '../cluster/types.js'
import type {HttpMetrics} from '../http/metrics.js'
import type {MeshService} from '../http/service.js'
import type {Logger} from '../lib/log.js'
import {openStorage} from '../store/open.js'
import {createRegistryContext} from './context.js'
import {createMessagingPart} from './messaging/index.js'
import {createPostgresMessagingStore} from './messaging/store/postgres.js'
import {createSqliteMessagingStore} from './messaging/store/sqlite.js'
import {createProbePart} from './probe/part.js'
import {createRegistry, type RegistryService} from './registry.js'
import {createSearchPart} from './search/part.js'
import {createSitePart} from './site/part.js'
import type {SiteOptions} from './site/types.js'
import {loadRegistrySecrets} from './shared-secrets.js'
import {createPostgresRegistryStore} from './store/postgres.js'
import {createSqliteRegistryStore} from './store/sqlite.js'
import type {RegistryStore} from './store/store.js'
import type {RegistryLimits} from './types.js'
import type {StandardSite} from '../standard/site.js'

export interface RegistryServerConfig {
  /** Data dir: `mesh.db` (SQLite), the secrets files. Created with mode 0700. */
  dataDir: string
  /** DECISIONS Public address: base of hub_url, handles, cluster ws URLs. */
  publicUrl: string
  logger: Logger
  /** postgres://… — several nodes share it; default SQLite in the data dir. */
  databaseUrl?: string
  /** PostgreSQL schema (default public). */
  databaseSchema?: string
  /** nats://… — fan-out between nodes; default an in-process bus. */
  natsUrl?: string
  /** Subject prefix on NATS (default mesh). */
  natsPrefix?: string
  /** Probe and webhook private/loopback addresses (development, LAN). */
  allowPrivateEndpoints?: boolean
  limits?: Partial<RegistryLimits>
  /** Limits of the embedded relay (`mesh serve relay`'s limit flags); defaults in src/cluster/constants.ts. */
  relayLimits?: Partial<RelayLimits>
  /**
   * Behind a reverse proxy: per-IP limits of socket upgrades key on the
   * forwarded address. Pass the same value to `serve()`, which does it for routes.
   */
  proxy?: boolean
  /**
   * issue 18: check v2 Mesh-Sig against the origin each request was addressed
   * to (Host, X-Forwarded-Proto/Host behind the proxy) rather than publicUrl's:
   * for `--proxy` without `--public-url`. See RegistryContextOptions.
   */
  audienceFromRequest?: boolean
  clock?: () => number
  /** Serve the cluster relay from the same process (default true). */
  relay?: boolean
  /** SQLite only: agent records kept in memory (default 16,384; see store/record-cache.ts). */
  recordCacheEntries?: number
  /** The standard's site the registry serves (`--site-dir`, loadStandardSiteDir); default the shipped texts. */
  site?: StandardSite
  /** Options of the web pages (catalog poll period, stream cap); search and the relay's public face are wired here. */
  pages?: Omit<SiteOptions, 'search' | 'clusters' | 'standard'>
  /** `--metrics`: count into a Prometheus registry of this server's own; `token` guards `GET /metrics` (Bearer). */
  metrics?: {token?: string}
}

export interface RegistryServer {
  /** Registry first, then the relay: hand these to serve(). */
  services: MeshService[]
  registry: RegistryService
  adminKey: string
  storage: {kind: 'sqlite'; path: string} | {kind: 'postgres'}
  bus: 'local' | 'nats'
  /**
   * With `metrics`: the `GET /metrics` service (put it first in serve()'s
   * services, or serve it alone on the metrics port) and the request sink
   * to give serve() as `httpMetrics`.
   */
  metrics?: {service: MeshService; http: HttpMetrics}
  /** Closes what the services do not own (stores, database, bus). Call after the host stopped. */
  close(): Promise<void>
}

export async function buildRegistryServer(config: RegistryServerConfig): Promise<RegistryServer> {
  // The secret files live there with PostgreSQL too (openStorage creates it only for SQLite's file).
  await mkdir(config.dataDir, {recursive: true, mode: 0o700})
  const closers: Array<() => Promise<void> | void> = []
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) {
      try {
        await closer()
      } catch (error) {
        config.logger.warn('close failed', {error: String(error)})
      }
    }
  }
  try {
    const storage = await openStorage({dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema})
    closers.push(() => storage.close())
    const pool = storage.kind === 'postgres' ? storage.pool : undefined
    const db = storage.kind === 'sqlite' ? storage.db : undefined
    const store: RegistryStore = pool ? await createPostgresRegistryStore({pool}) : createSqliteRegistryStore({db: db!, recordCacheEntries: config.recordCacheEntries})
    const {jwtSecret, adminKey} = await loadRegistrySecrets(store, config.dataDir)

    const bus = await openBus({natsUrl: config.natsUrl, natsPrefix: config.natsPrefix, name: 'mesh-registry', logger: config.logger})
    closers.push(() => bus.close())

    // prom-client loads only with --metrics.
    const prometheus = config.metrics ? await import('../http/prometheus.js') : undefined
    const serverMetrics = prometheus?.createServerMetrics()
    // Built below, after the context: the gauges read it only at a scrape.
    let relay: ReturnType<typeof createRelay> | undefined
    const counted = serverMetrics
      ? (await import('./metrics-prometheus.js')).registerRegistryMetrics(serverMetrics.registry, {
          store,
          clock: config.clock ?? Date.now,
          bus,
          pool,
          relay: (config.relay ?? true) ? {stats: () => relay?.stats() ?? {sockets: 0, clusters: 0}} : undefined,
        })
      : undefined

    const context = createRegistryContext({
      store,
      bus,
      logger: config.logger,
      publicUrl: config.publicUrl,
      audienceFromRequest: config.audienceFromRequest,
      jwtSecret,
      adminKey,
      clock: config.clock,
      limits: config.limits,
      metrics: counted?.registry,
    })

    // The cluster relay shares the database and bus: one registry process serves both (docs/architecture.md, Services are factories).
    if (config.relay ?? true) {
      const clusterStore = pool ? await createPostgresClusterStore(pool) : createSqliteClusterStore(db!)
      const boards = createBoardsPart({
        clusters: createClusterAccess({store: clusterStore}),
        store: pool ? await createPostgresBoardStore(pool) : createSqliteBoardStore(db!),
        clock: config.clock,
        logger: config.logger,
      })
      closers.push(() => boards.close())
      relay = createRelay({
        store: clusterStore,
        bus,
        logger: config.logger,
        publicUrl: context.publicUrl,
        clock: config.clock,
        boards,
        limits: config.relayLimits,
        proxy: config.proxy,
        metrics: counted?.relay,
      })
    }

    const search = createSearchPart(context)
    const parts = [
      search,
      createProbePart(context, {allowPrivate: config.allowPrivateEndpoints}),
      createMessagingPart(context, {
        store: pool ? await createPostgresMessagingStore(pool) : createSqliteMessagingStore(db!),
        channels: relay,
        allowPrivateWebhooks: config.allowPrivateEndpoints,
      }),
      // The web pages read the search index and the relay's public face (docs/site.md).
      createSitePart(context, {...config.pages, search: search.service, clusters: relay?.publicView, standard: config.site}),
    ]
    const registry = createRegistry({context, parts, proxy: config.proxy, site: config.site, healthViews: relay ? {relay: relay.nodeView} : undefined})
    return {
      services: relay ? [registry, relay] : [registry],
      registry,
      adminKey,
      storage: storage.kind === 'sqlite' ? {kind: 'sqlite', path: storage.path} : {kind: 'postgres'},
      bus: config.natsUrl ? 'nats' : 'local',
      metrics: serverMetrics && prometheus ? {service: prometheus.metricsService(serverMetrics.registry, config.metrics?.token), http: serverMetrics.http} : undefined,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
