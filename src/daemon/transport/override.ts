/**
 * A socket for the daemon set by the process that runs it, in place of
 * cluster.yaml's: `mesh up` joins its daemon to the cluster it made on its
 * embedded relay without writing a loopback address into the committed
 * cluster.yaml (docs/network.md, mesh up). Set once the relay listens; the
 * transport area follows each change.
 */
export interface TransportSocketOverride {
  /** The member socket URL, no query. */
  endpoint: string
  token: string | null
}

export interface TransportOverride {
  current(): TransportSocketOverride | null
  set(value: TransportSocketOverride | null): void
  onChange(listener: () => void): () => void
}

export function createTransportOverride(): TransportOverride {
  let value: TransportSocketOverride | null = null
  const listeners = new Set<() => void>()
  return {
    current: () => value,
    set(next) {
      value = next
      for (const listener of listeners) listener()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
