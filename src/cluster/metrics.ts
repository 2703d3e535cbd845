/**
 * What the relay counts, as a sink the hub, rooms and member sockets call
 * where the fact happens; the registry's Prometheus face implements it
 * (src/registry/metrics-prometheus.ts). Sockets and clusters are read on
 * scrape from the hub (RelayService.stats), not counted here.
 */
export interface RelayMetrics {
  /** A frame read from a member socket. */
  frameIn(): void
  /** A frame handed to a member socket. */
  frameOut(): void
  /** Copies of one broadcast handed to local sockets (the fan-out of one message on this node). */
  fanout(deliveries: number): void
  /** A socket closed because it did not read fast enough (`slow_consumer`). */
  slowConsumerClose(): void
}

const nothing = () => {}

export const NO_RELAY_METRICS: RelayMetrics = {frameIn: nothing, frameOut: nothing, fanout: nothing, slowConsumerClose: nothing}
