import {randomUUID} from 'node:crypto'
import {connect, type NatsConnection} from 'nats'
import type {Bus, BusHandler} from './bus.js'

export interface NatsBusOptions {
  /** nats://host:port (comma-separated list allowed) */
  url: string
  /** Prefix for every subject, so several deployments can share one NATS server. */
  prefix?: string
  name?: string
}

/** A Bus over core NATS: one connection per process, subjects prefixed per deployment. */
export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const prefix = options.prefix ?? 'mesh'
  const nc: NatsConnection = await connect({
    servers: options.url.split(','),
    name: options.name ?? 'mesh',
    reconnect: true,
    maxReconnectAttempts: -1,
  })
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
    async close() {
      await nc.drain().catch(() => nc.close())
    },
  }
}
