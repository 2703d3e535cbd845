/**
 * The body of the registry's `GET /health` (docs/registry.md "Health"):
 * `ok` and `service` as always, then this node's id, the bus connection,
 * the registry nodes it sees (the messaging part tracks them) and, under
 * their name, the views of services served with it (the relay).
 */
import type {CoreRegistryContext} from './context.js'
import type {RegistryPart} from './types.js'

export type HealthViews = Record<string, () => unknown>

export function registryHealth(context: CoreRegistryContext, parts: RegistryPart[], views: HealthViews = {}): () => Record<string, unknown> {
  const tracker = parts.find((part) => part.nodeView)
  return () => {
    const own = tracker?.nodeView?.() ?? {peers: [], checked_at: null}
    const body: Record<string, unknown> = {node_id: context.bus.nodeId, bus: context.bus.status(), peers: own.peers, checked_at: own.checked_at}
    for (const [name, view] of Object.entries(views)) body[name] = view()
    return body
  }
}

/** How long `/health/ready` waits on a dependency before it counts as down. */
export const READY_CHECK_TIMEOUT_MS = 2_000

/** Whether this node takes traffic; `draining` is set while it stops (the drain sets it, `/health/ready` answers 503). */
export interface Readiness {
  draining: boolean
}

/** Why the node is not ready: the stable code and sentence of the 503, or null when ready. */
export type NotReady = {code: 'draining' | 'store_unavailable' | 'bus_unavailable'; message: string} | null

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()))
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/**
 * `GET /health/ready`: not while draining; the store answers a trivial
 * query; the bus, when it is NATS, is connected (the local bus always is).
 */
export function registryReadiness(context: CoreRegistryContext, readiness: Readiness, timeoutMs = READY_CHECK_TIMEOUT_MS): () => Promise<NotReady> {
  return async () => {
    if (readiness.draining) return {code: 'draining', message: 'This node is draining: it takes no new traffic'}
    try {
      await withTimeout(context.store.ping(), timeoutMs)
    } catch (error) {
      return {code: 'store_unavailable', message: `The database does not answer: ${(error as Error)?.message ?? String(error)}`}
    }
    const bus = context.bus.status()
    if (!bus.connected) return {code: 'bus_unavailable', message: `The ${bus.kind === 'nats' ? 'NATS' : bus.kind} bus is not connected`}
    return null
  }
}
