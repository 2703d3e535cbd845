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
