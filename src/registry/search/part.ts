/**
 * The search part of the registry: built from the RegistryContext, served by
 * the registry beside its own routes (src/registry/types.ts RegistryPart).
 */
import type {RegistryContext, RegistryPart} from '../types.js'
import {searchMiddleware} from './routes.js'
import {createSearchService, type SearchService} from './search-service.js'

export interface SearchPartOptions {
  /** How often the whole index is re-read from the store (ms); 0 disables. Default 10 min. */
  resyncMs?: number
}

/** A RegistryPart with its service exposed, so tests and the benchmark can reach the index. */
export interface SearchPart extends RegistryPart {
  service: SearchService
}

/** Builds the search part: `POST /v1/search` over an index loaded at start and kept current from bus events. */
export function createSearchPart(ctx: RegistryContext, options: SearchPartOptions = {}): SearchPart {
  const service = createSearchService({
    store: ctx.store,
    events: ctx.events,
    bus: ctx.bus,
    clock: ctx.clock,
    logger: ctx.logger,
    resyncMs: options.resyncMs,
    metrics: ctx.metrics,
  })
  return {
    name: 'search',
    service,
    middleware: searchMiddleware(service),
    start: () => service.start(),
    close: () => service.close(),
  }
}
