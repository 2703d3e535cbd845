import {randomUUID} from 'node:crypto'

export type BusHandler = (data: Uint8Array, subject: string) => void

/** Whether this node reaches the other nodes (docs/relay.md "Health"). */
export interface BusStatus {
  kind: 'local' | 'nats'
  /** The local bus always is; NATS follows its connection (false while it reconnects, and once closed). */
  connected: boolean
  /** Times the connection came back after a loss since the bus opened. */
  reconnects: number
  /** ISO time of the last change: opened, lost or back. */
  since: string
}

/**
 * Fan-out between the nodes of one deployment. Subjects are dot-separated
 * (NATS style); a subscription may end in `>` to match every subject below.
 * Delivery is at-most-once, like core NATS: durable state lives in the store.
 */
export interface Bus {
  /** Unique per process, so a node can recognise its own publications. */
  readonly nodeId: string
  publish(subject: string, data: Uint8Array): void
  /** Returns a function that ends the subscription. */
  subscribe(subject: string, handler: BusHandler): () => void
  /** Resolves once everything published so far has reached the server (no-op locally). */
  flush(): Promise<void>
  /** The connection as last reported by the transport; cheap, for `/health`. */
  status(): BusStatus
  close(): Promise<void>
}

const matches = (pattern: string, subject: string) =>
  pattern === subject || (pattern.endsWith('.>') && subject.startsWith(pattern.slice(0, -1)))

/** The single-node bus: synchronous, in-process delivery. */
export function createLocalBus(): Bus {
  const subscriptions = new Set<{pattern: string; handler: BusHandler}>()
  const status: BusStatus = {kind: 'local', connected: true, reconnects: 0, since: new Date().toISOString()}
  return {
    nodeId: randomUUID(),
    publish(subject, data) {
      for (const sub of subscriptions) if (matches(sub.pattern, subject)) sub.handler(data, subject)
    },
    subscribe(pattern, handler) {
      const sub = {pattern, handler}
      subscriptions.add(sub)
      return () => void subscriptions.delete(sub)
    },
    async flush() {},
    status: () => ({...status}),
    async close() {
      subscriptions.clear()
    },
  }
}
