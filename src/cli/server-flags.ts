/**
 * The flags of the operators' servers, defined once: `mesh serve registry`
 * and `mesh serve relay` take the same server flags (same defaults, same
 * MESH_* env names) and the same relay limits (docs/registry.md, docs/relay.md).
 */
import {Flags, type Interfaces} from '@oclif/core'
import {DEFAULT_LIMITS} from '../cluster/constants.js'

/** Relative to the working directory, as the README's `mesh serve registry --data ./mesh-data`. */
export const DEFAULT_DATA_DIR = './mesh-data'

/** `--data`, also read by `mesh registry admin-key`, which must find what the server wrote. */
export const dataFlag = Flags.string({
  char: 'd',
  description: 'data folder: the SQLite database mesh.db and the registry secrets (created mode 0700)',
  default: DEFAULT_DATA_DIR,
  env: 'MESH_DATA',
})

export const serverFlags = {
  port: Flags.integer({char: 'p', description: 'port to listen on (0 picks a free one; the start line prints it)', default: 8080, min: 0, max: 65535, env: 'MESH_PORT'}),
  host: Flags.string({description: 'address to bind (0.0.0.0 for every interface)', default: '127.0.0.1', env: 'MESH_HOST'}),
  data: dataFlag,
  'public-url': Flags.string({description: 'public base URL, used in hub_url, handles and cluster ws URLs (default: the listening address)', env: 'MESH_PUBLIC_URL'}),
  'database-url': Flags.string({description: 'PostgreSQL URL (postgres://…) instead of SQLite; several nodes may share it', env: 'MESH_DATABASE_URL'}),
  'database-schema': Flags.string({description: 'PostgreSQL schema (created when missing)', default: 'public', env: 'MESH_DATABASE_SCHEMA'}),
  nats: Flags.string({description: 'NATS URL (nats://…) for fan-out between nodes', env: 'MESH_NATS_URL'}),
  'nats-prefix': Flags.string({description: 'prefix of every NATS subject, so deployments can share a NATS server', default: 'mesh', env: 'MESH_NATS_PREFIX'}),
  proxy: Flags.boolean({description: 'behind a reverse proxy: per-IP limits use the address in X-Forwarded-For (the last one, added by the proxy)', default: false, env: 'MESH_PROXY'}),
  'log-level': Flags.option({options: ['debug', 'info', 'warn', 'error'] as const, description: 'server log level (stderr)', default: 'info', env: 'MESH_LOG_LEVEL'})(),
}

/** The relay's configurable limits (DECISIONS: Limits (configurable)); the registry embeds the same relay. */
export const relayLimitFlags = {
  'max-message-rate': Flags.integer({description: 'messages per second one cluster socket may send', default: DEFAULT_LIMITS.messagesPerWindow, min: 1}),
  'max-members': Flags.integer({description: 'sockets per cluster, across nodes', default: DEFAULT_LIMITS.membersPerCluster, min: 1}),
  'max-creations-per-hour': Flags.integer({description: 'cluster creations per client IP per hour', default: DEFAULT_LIMITS.creationsPerIp, min: 1}),
  'max-sockets-per-minute': Flags.integer({description: 'cluster sockets one client IP may open per minute (per node)', default: DEFAULT_LIMITS.socketOpensPerIp, min: 1}),
  'high-water-bytes': Flags.integer({description: 'unsent bytes after which a slow socket is closed (slow_consumer)', default: DEFAULT_LIMITS.highWaterBytes, min: 65536}),
  'ping-interval': Flags.integer({description: 'seconds between keepalive pings; a socket missing a pong is closed', default: DEFAULT_LIMITS.pingIntervalMs / 1000, min: 1}),
}

/** `--metrics`, `--metrics-port`, `--metrics-token` (docs/operating.md, Metrics). */
export const metricsFlags = {
  metrics: Flags.boolean({description: 'serve Prometheus metrics at GET /metrics (off by default)', default: false, env: 'MESH_METRICS'}),
  'metrics-port': Flags.integer({
    description: 'serve /metrics on this port of --host instead of the main port (0 picks a free one)',
    min: 0,
    max: 65535,
    env: 'MESH_METRICS_PORT',
    dependsOn: ['metrics'],
  }),
  'metrics-token': Flags.string({
    description: 'answer /metrics only to Authorization: Bearer <token> (prefer the env variable: a flag shows in ps)',
    env: 'MESH_METRICS_TOKEN',
    dependsOn: ['metrics'],
  }),
}

/** The parsed values of the shared server flags (oclif infers them from the definitions above). */
export type ServerFlagValues = Interfaces.InferredFlags<typeof serverFlags>

export type RelayLimitFlagValues = Interfaces.InferredFlags<typeof relayLimitFlags>

/** The flags as `createRelay`'s limits (RelayLimits in src/cluster/types.ts). */
export function relayLimitsOf(flags: RelayLimitFlagValues) {
  return {
    messagesPerWindow: flags['max-message-rate'],
    messageWindowMs: 1000,
    membersPerCluster: flags['max-members'],
    creationsPerIp: flags['max-creations-per-hour'],
    socketOpensPerIp: flags['max-sockets-per-minute'],
    highWaterBytes: flags['high-water-bytes'],
    pingIntervalMs: flags['ping-interval'] * 1000,
  }
}
