/**
 * openBus: the one way a server process opens its bus — in-process for a
 * single node, NATS when a URL is given (docs/architecture.md, Storage).
 * The nats client is imported only when used.
 */
import type {Logger} from '../lib/log.js'
import {createLocalBus, type Bus} from './bus.js'

export interface OpenBusOptions {
  /** nats://… (comma-separated list allowed); default the in-process bus. */
  natsUrl?: string
  /** Prefix of every NATS subject (default mesh), so deployments can share a server. */
  natsPrefix?: string
  /** The connection's name on the NATS server, e.g. mesh-registry. */
  name: string
  /** Where NATS connection losses and recoveries are logged. */
  logger?: Logger
}

export async function openBus(options: OpenBusOptions): Promise<Bus> {
  if (!options.natsUrl) return createLocalBus()
  const {createNatsBus} = await import('./nats.js')
  return createNatsBus({url: options.natsUrl, prefix: options.natsPrefix, name: options.name, logger: options.logger})
}
