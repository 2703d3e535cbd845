/**
 * The registry server's metrics on a prom-client registry (`--metrics`):
 * the counters behind RegistryMetrics and RelayMetrics, and the gauges read
 * on scrape — agents registered and online (one count query), the relay's
 * sockets and clusters, the NATS connection, the PostgreSQL pool. Every name
 * is in docs/operating.md; test/registry/metrics.test.ts checks the list.
 */
import type {Bus} from '../bus/bus.js'
import type {RelayMetrics} from '../cluster/metrics.js'
import type {RelayStats} from '../cluster/types.js'
import {Counter, Gauge, type Registry} from '../http/prometheus.js'
import type {PgPool} from '../store/postgres.js'
import {ONLINE_WINDOW_MS} from './constants.js'
import type {RegistryMetrics} from './metrics.js'
import type {AgentCounts, RegistryStore} from './store/store.js'

export interface RegistryMetricsSources {
  store: Pick<RegistryStore, 'countAgents'>
  clock: () => number
  /** The relay served with the registry, when it is. */
  relay?: {stats(): RelayStats}
  /** The bus; its connection is shown when it is NATS. */
  bus: Pick<Bus, 'status'>
  /** The PostgreSQL pool, when the registry runs on PostgreSQL. */
  pool?: Pick<PgPool, 'totalCount' | 'idleCount' | 'waitingCount'>
}

/** Defines the registry's metrics on `registry` and returns the sinks the layers count into. */
export function registerRegistryMetrics(registry: Registry, sources: RegistryMetricsSources): {registry: RegistryMetrics; relay: RelayMetrics} {
  const registers = [registry]
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({name, help, labelNames, registers})

  // Read from the store on scrape: both counts in one query, shared by the two gauges (prom-client collects
  // every metric of a scrape at once), nothing kept in step by the hot path.
  let counting: Promise<AgentCounts> | undefined
  const agentCounts = () => (counting ??= sources.store.countAgents(sources.clock() - ONLINE_WINDOW_MS).finally(() => (counting = undefined)))
  new Gauge({
    name: 'mesh_agents_registered',
    help: 'Agents registered on this registry (the whole database, every node)',
    registers,
    async collect() {
      this.set((await agentCounts()).registered)
    },
  })
  new Gauge({
    name: 'mesh_agents_online',
    help: 'Agents seen in the last 5 minutes (the whole database, every node)',
    registers,
    async collect() {
      this.set((await agentCounts()).online)
    },
  })

  const heartbeats = counter('mesh_registry_heartbeats_total', 'Token calls accepted (heartbeats) on this node')
  const registrations = counter('mesh_registry_registrations_total', 'Registrations accepted (new agents and key rotations) on this node')
  const searches = counter('mesh_registry_searches_total', 'Searches run on this node')
  const probes = counter('mesh_registry_probes_total', 'Probes saved by this node, by outcome', ['outcome'] as const)
  const accepted = counter('mesh_messages_accepted_total', 'Messages accepted from agents, by transport (http, ws)', ['transport'] as const)
  const delivered = counter('mesh_messages_delivered_total', 'Messages that reached their reader, by way (live, read, ack, webhook)', ['via'] as const)
  const queued = counter('mesh_messages_queued_total', 'Messages stored for later, by route (inbox, webhook)', ['route'] as const)
  const deadLettered = counter('mesh_messages_dead_lettered_total', 'Webhook deliveries given up after the last attempt')
  const webhookRetries = counter('mesh_webhook_retries_total', 'Webhook deliveries that failed and were scheduled again')

  const framesIn = counter('mesh_relay_frames_in_total', 'Frames read from relay member sockets on this node')
  const framesOut = counter('mesh_relay_frames_out_total', 'Frames written to relay member sockets on this node')
  const fanout = counter('mesh_relay_fanout_deliveries_total', 'Copies of broadcast frames (messages, presence) handed to local member sockets')
  const slowConsumers = counter('mesh_relay_slow_consumer_closes_total', 'Member sockets closed because they did not read fast enough')
  // Each gauge reads its own source on scrape.
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read())
      },
    })
  const relay = sources.relay
  if (relay) {
    gauge('mesh_relay_sockets', 'Relay member sockets open on this node', () => relay.stats().sockets)
    gauge('mesh_relay_clusters', 'Clusters with a member socket on this node', () => relay.stats().clusters)
  }
  const bus = sources.bus
  if (bus.status().kind === 'nats') {
    gauge('mesh_nats_connected', '1 while the NATS connection is up, 0 while it reconnects or after it closed', () => (bus.status().connected ? 1 : 0))
    gauge('mesh_nats_reconnects', 'Times the NATS connection was re-established since start', () => bus.status().reconnects)
  }
  const pool = sources.pool
  if (pool) {
    new Gauge({
      name: 'mesh_pg_pool_connections',
      help: 'PostgreSQL pool connections, by state (idle, busy)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({state: 'idle'}, pool.idleCount)
        this.set({state: 'busy'}, pool.totalCount - pool.idleCount)
      },
    })
    gauge('mesh_pg_pool_waiting', 'Queries waiting for a PostgreSQL connection', () => pool.waitingCount)
  }

  return {
    registry: {
      heartbeat: () => heartbeats.inc(),
      registration: () => registrations.inc(),
      search: () => searches.inc(),
      probe: (outcome) => probes.inc({outcome}),
      messageAccepted: (transport) => accepted.inc({transport}),
      messagesDelivered: (via, count) => delivered.inc({via}, count),
      messageQueued: (route) => queued.inc({route}),
      messageDeadLettered: () => deadLettered.inc(),
      webhookRetry: () => webhookRetries.inc(),
    },
    relay: {
      frameIn: () => framesIn.inc(),
      frameOut: () => framesOut.inc(),
      fanout: (deliveries) => {
        if (deliveries > 0) fanout.inc(deliveries)
      },
      slowConsumerClose: () => slowConsumers.inc(),
    },
  }
}
