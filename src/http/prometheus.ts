/**
 * The Prometheus face of a mesh server, through prom-client: one registry
 * per server instance (never prom-client's global one, so several servers
 * in one process — tests, `mesh up` — keep their own series), the default
 * process metrics, the HTTP request counter and latency histogram, and the
 * `GET /metrics` answer with its optional Bearer token. Services define
 * their own metrics on `registry` (docs/operating.md lists them all).
 */
import {timingSafeEqual, createHash} from 'node:crypto'
import type {Middleware} from 'koa'
import {Counter, Histogram, Registry, collectDefaultMetrics} from 'prom-client'
import {unauthorized} from '../lib/errors.js'
import {bearerToken} from './bearer.js'
import {nameRoute, type HttpMetrics} from './metrics.js'
import type {MeshService} from './service.js'

export {Counter, Gauge, Histogram, Registry} from 'prom-client'

/** The path the metrics are served on, on the service port or on `--metrics-port`. */
export const METRICS_PATH = '/metrics'

/** Latency buckets (seconds): a heartbeat answers in about a millisecond, a search or page in tens. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface ServerMetrics {
  registry: Registry
  /** The host's request sink (httpMetricsMiddleware). */
  http: HttpMetrics
}

/** A fresh registry with the process metrics and the HTTP request metrics. */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry()
  // Unprefixed (process_*, nodejs_*): the names every Node dashboard already reads.
  collectDefaultMetrics({register: registry})
  const requests = new Counter({
    name: 'mesh_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'mesh_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  return {
    registry,
    http: {
      request(method, route, status, seconds) {
        requests.inc({method, route, status: String(status)})
        latency.observe({method, route}, seconds)
      },
    },
  }
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/**
 * Answers `GET /metrics` with the registry's text exposition; with a token,
 * only to `Authorization: Bearer <token>` (401 `metrics_token_required` /
 * `invalid_metrics_token` otherwise, as the error middleware writes them).
 */
export function metricsRoute(registry: Registry, token?: string): Middleware {
  const expected = token ? digest(token) : null
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next()
    nameRoute(ctx, METRICS_PATH)
    if (expected) {
      const given = bearerToken(ctx.get('authorization') || undefined)
      if (!given) throw unauthorized('metrics_token_required', 'Send Authorization: Bearer <metrics token> (--metrics-token)')
      // Compared as digests: equal lengths, constant time.
      if (!timingSafeEqual(digest(given), expected)) throw unauthorized('invalid_metrics_token', "The bearer token is not this server's metrics token")
    }
    ctx.type = registry.contentType
    ctx.body = await registry.metrics()
  }
}

/** `GET /metrics` as a service of its own: first on the main port, or alone on `--metrics-port`. */
export function metricsService(registry: Registry, token?: string): MeshService {
  return {name: 'metrics', middleware: metricsRoute(registry, token), async close() {}}
}
