/**
 * `GET /metrics` of the daemon, behind the portal token like every `bearer`
 * route: the Prometheus text of its own registry (never prom-client's
 * global one), built at the first scrape from what work.ts counted, with
 * the process metrics from then on. docs/operating.md, The daemon's metrics.
 */
import {answer, type Route} from '../route-table.js'
import type {DaemonWork} from './work.js'

/** Turn durations (seconds): a quick answer takes seconds, a long task an hour. */
const TURN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]

async function buildRegistry(work: DaemonWork) {
  const {Counter, Gauge, Histogram, Registry, collectDefaultMetrics} = await import('prom-client')
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({register: registry})
  new Gauge({
    name: 'mesh_daemon_turns_running',
    help: 'Turns running now',
    registers,
    collect() {
      this.set(work.load()?.running ?? 0)
    },
  })
  new Gauge({
    name: 'mesh_daemon_turns_waiting',
    help: 'Turns waiting to run (capacity, a busy conversation)',
    registers,
    collect() {
      this.set(work.load()?.waiting ?? 0)
    },
  })
  const durations = new Histogram({name: 'mesh_daemon_turn_duration_seconds', help: 'Time from a turn\'s start to its final, by status', labelNames: ['status'] as const, buckets: TURN_BUCKETS, registers})
  // The running total, shown as a counter: it only grows.
  new Counter({
    name: 'mesh_daemon_reported_cost_usd_total',
    help: 'Cost the clients reported for their turns, in US dollars',
    registers,
    collect() {
      this.reset()
      this.inc(work.costUsd)
    },
  })
  new Gauge({
    name: 'mesh_daemon_event_subscribers',
    help: 'Sockets subscribed to /events now',
    registers,
    collect() {
      this.set(work.eventSubscribers())
    },
  })
  new Counter({
    name: 'mesh_daemon_watcher_events_total',
    help: 'Events the file watcher published, by type',
    labelNames: ['type'] as const,
    registers,
    collect() {
      this.reset()
      for (const [type, count] of work.watcherEvents) this.inc({type}, count)
    },
  })
  work.observeTurns((turn) => durations.observe({status: turn.status}, turn.seconds))
  return registry
}

export function metricsRoutes(work: DaemonWork): Route[] {
  let registry: ReturnType<typeof buildRegistry> | undefined
  return [
    {
      method: 'GET',
      path: '/metrics',
      auth: 'bearer',
      async handle() {
        const built = await (registry ??= buildRegistry(work))
        return answer(await built.metrics(), 200, {'Content-Type': built.contentType})
      },
    },
  ]
}
