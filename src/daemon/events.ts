/**
 * The daemon's one event bus: everything that happens (a file changed on
 * disk, a link rewritten, a task moved, a timeline line) is published here
 * once, as the envelope every `/events` subscriber receives
 * (src/protocol/events.ts). docs/daemon-api.md lists every type and payload.
 */
import type {DaemonEvent} from '../protocol/events.js'

export type EventListener = (event: DaemonEvent) => void

export interface EventBus {
  publish<T>(type: string, data: T): DaemonEvent<T>
  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void
  readonly subscribers: number
}

export function createEventBus(options: {clock?: () => number; onListenerError?: (error: unknown) => void} = {}): EventBus {
  const clock = options.clock ?? Date.now
  const listeners = new Set<EventListener>()
  return {
    publish(type, data) {
      const event = {type, ts: new Date(clock()).toISOString(), data}
      for (const listener of listeners) {
        // One broken subscriber must not keep the others from hearing the event.
        try {
          listener(event)
        } catch (error) {
          options.onListenerError?.(error)
        }
      }
      return event
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    get subscribers() {
      return listeners.size
    },
  }
}
