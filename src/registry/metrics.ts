/**
 * What the registry counts, as a sink each layer calls where the fact
 * happens (the token route, the prober, the messaging part). It knows
 * nothing of Prometheus: `metrics-prometheus.ts` implements it when
 * `--metrics` is on, and NO_REGISTRY_METRICS costs nothing otherwise.
 * docs/operating.md lists the metrics behind each call.
 */

/** How the prober found an agent: serving, answering wrongly or not at all, or not decidable (no skill to check). */
export type ProbeOutcome = 'operational' | 'failing' | 'unknown'

/** How a message reached its reader: on a live socket, by an inbox read or ack, or accepted by its webhook. */
export type DeliveryVia = 'live' | 'read' | 'ack' | 'webhook'

export interface RegistryMetrics {
  /** A token call accepted (the heartbeat). */
  heartbeat(): void
  /** A registration accepted (a new agent or a key rotation). */
  registration(): void
  /** A search answered. */
  search(): void
  probe(outcome: ProbeOutcome): void
  /** A message accepted from an agent (`POST /agents/messages` or an agent socket's `send`). */
  messageAccepted(transport: 'http' | 'ws'): void
  messagesDelivered(via: DeliveryVia, count: number): void
  /** A message stored for later: in the inbox, or in the webhook queue. */
  messageQueued(route: 'inbox' | 'webhook'): void
  /** A webhook delivery that failed for the last time. */
  messageDeadLettered(): void
  /** A webhook delivery that failed and was scheduled again. */
  webhookRetry(): void
}

const nothing = () => {}

/** The sink of a registry served without `--metrics`. */
export const NO_REGISTRY_METRICS: RegistryMetrics = {
  heartbeat: nothing,
  registration: nothing,
  search: nothing,
  probe: nothing,
  messageAccepted: nothing,
  messagesDelivered: nothing,
  messageQueued: nothing,
  messageDeadLettered: nothing,
  webhookRetry: nothing,
}
