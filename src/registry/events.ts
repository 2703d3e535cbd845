/** Registry events on the bus (subject `registry.events`), JSON encoded. */
import type {Bus} from '../bus/bus.js'
import type {Logger} from '../lib/log.js'
import {REGISTRY_EVENTS_SUBJECT, type RegistryEvent, type RegistryEventType, type RegistryEvents} from './types.js'

const TYPES = new Set<RegistryEventType>(['agent.registered', 'agent.card', 'agent.online', 'agent.offline'])
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Parses one bus message; null for anything that is not a well-formed registry event. */
export function decodeRegistryEvent(data: Uint8Array): RegistryEvent | null {
  try {
    const value = JSON.parse(decoder.decode(data)) as Partial<RegistryEvent>
    if (!value || !TYPES.has(value.type as RegistryEventType) || typeof value.agent_id !== 'string' || typeof value.at !== 'string') return null
    return {type: value.type as RegistryEventType, agent_id: value.agent_id, at: value.at}
  } catch {
    return null
  }
}

export function createRegistryEvents(options: {bus: Bus; clock: () => number; logger: Logger}): RegistryEvents {
  return {
    publish(type, agentId) {
      const event: RegistryEvent = {type, agent_id: agentId, at: new Date(options.clock()).toISOString()}
      try {
        options.bus.publish(REGISTRY_EVENTS_SUBJECT, encoder.encode(JSON.stringify(event)))
      } catch (error) {
        // At-most-once by design: a lost event is healed by readers' periodic re-reads.
        options.logger.warn('registry event not published', {type, agent_id: agentId, error: String(error)})
      }
    },
    subscribe(handler) {
      return options.bus.subscribe(REGISTRY_EVENTS_SUBJECT, (data) => {
        const event = decodeRegistryEvent(data)
        if (!event) return
        try {
          handler(event)
        } catch (error) {
          options.logger.warn('registry event handler failed', {type: event.type, error: String(error)})
        }
      })
    },
  }
}
