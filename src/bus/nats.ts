import {randomUUID} from 'node:crypto'
import {connect, type NatsConnection} from '@nats-io/transport-node'
import type {Logger} from '../lib/log.js'
import type {Bus, BusHandler, BusStatus} from './bus.js'

export interface NatsBusOptions {
  /** nats://host:port (comma-separated list allowed) */
  url: string
  /** Prefix for every subject, so several deployments can share one NATS server. */
  prefix?: string
  name?: string
  /** Where connection losses and recoveries are logged (one line each); default: not logged. */
  logger?: Logger
  /** Wait between reconnect attempts to one server (nats.js default 2000 ms); tests shorten it. */
  reconnectTimeWaitMs?: number
}

/** A Bus over core NATS: one connection per process, subjects prefixed per deployment. */
export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const prefix = options.prefix ?? 'mesh'
  const nc: NatsConnection = await connect({
    servers: options.url.split(','),
    name: options.name ?? 'mesh',
    reconnect: true,
    maxReconnectAttempts: -1,
    ...(options.reconnectTimeWaitMs === undefined ? {} : {reconnectTimeWait: options.reconnectTimeWaitMs}),
  })
  const status: BusStatus = {kind: 'nats', connected: true, reconnects: 0, since: new Date().toISOString()}
  const change = (connected: boolean) => {
    status.connected = connected
    status.since = new Date().toISOString()
  }
  // The client's status events drive `connected`; server addresses are not logged (a URL may carry credentials).
  void (async () => {
    for await (const event of nc.status()) {
      if (event.type === 'disconnect' && status.connected) {
        change(false)
        options.logger?.warn('bus disconnected; reconnecting', {bus: 'nats'})
      } else if (event.type === 'reconnect') {
        status.reconnects++
        change(true)
        options.logger?.info('bus reconnected', {bus: 'nats', reconnects: status.reconnects})
      }
    }
  })().catch(() => {})
  void nc.closed().then(() => change(false))
  const full = (subject: string) => `${prefix}.${subject}`
  return {
    nodeId: randomUUID(),
    publish(subject, data) {
      nc.publish(full(subject), data)
    },
    subscribe(subject, handler: BusHandler) {
      const sub = nc.subscribe(full(subject), {
        callback: (error, msg) => {
          if (!error) handler(msg.data, msg.subject.slice(prefix.length + 1))
        },
      })
      return () => sub.unsubscribe()
    },
    flush: () => nc.flush(),
    status: () => ({...status}),
    async close() {
      await nc.drain().catch(() => nc.close())
    },
  }
}
