/**
 * createRegistry: the registry as one MeshService — its own routes, the
 * parts built by the search/probe and messaging areas, the offline sweep.
 * The store and bus belong to the caller (compose.ts closes them).
 */
import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {clientIp} from '../http/client-ip.js'
import {refuseUpgrade} from '../http/host.js'
import type {MeshService} from '../http/service.js'
import type {StandardSite} from '../standard/site.js'
import {createRegistryContext, type CoreRegistryContext, type RegistryContextOptions} from './context.js'
import {REGISTRY_PATH} from './constants.js'
import {registryHealth, registryReadiness, type HealthViews, type Readiness} from './health.js'
import {registryChain} from './http/chain.js'
import {registryGuards} from './http/guards.js'
import {createRegistryRoutes} from './http/routes.js'
import {createRegistryOperations} from './service.js'
import {createOfflineSweep} from './sweep.js'
import type {RegistryPart} from './types.js'

interface RegistryExtras {
  /** Parts built from the same context (search/probe, messaging). */
  parts?: RegistryPart[]
  /** Offline sweep period (ms); default 5 s. */
  sweepIntervalMs?: number
  /** Views of services served with the registry, shown in `/health` under their name (compose.ts: the relay's). */
  healthViews?: HealthViews
  /**
   * Behind a reverse proxy: the agent socket's upgrade counts against the
   * per-IP limit of the forwarded address, as routes do (give `serve` the same setting).
   */
  proxy?: boolean
  /** The standard's site (`/standard/version`, `/standard/CHANGELOG.md`, `/resources`); default the shipped texts. */
  site?: StandardSite
}

/**
 * Either the context options (the registry builds its context) or `context`:
 * the one the parts were built from (createRegistryContext).
 */
export type RegistryOptions = RegistryExtras & (RegistryContextOptions | {context: CoreRegistryContext})

export interface RegistryService extends MeshService {
  readonly context: CoreRegistryContext
  /** True while the node stops: `/health/ready` answers 503 `draining` (set by the drain). */
  draining: boolean
  /** Runs one offline sweep pass now (tests, operators). */
  sweep(): Promise<string[]>
  /** Runs the parts' node heartbeats now: peers are read, changes logged, silent nodes swept (tests, operators). */
  heartbeat(): Promise<void>
}

export function createRegistry(options: RegistryOptions): RegistryService {
  const context = 'context' in options ? options.context : createRegistryContext(options)
  const parts = options.parts ?? []
  const names = new Set<string>()
  for (const part of parts) {
    if (names.has(part.name)) throw new TypeError(`Two registry parts are named "${part.name}"`)
    names.add(part.name)
  }
  const readiness: Readiness = {draining: false}
  const middleware = registryChain({
    guards: registryGuards(context),
    routes: createRegistryRoutes(
      context,
      createRegistryOperations(context),
      registryHealth(context, parts, options.healthViews),
      options.site,
      registryReadiness(context, readiness),
    ),
    parts: parts.flatMap((part) => (part.middleware ? [part.middleware] : [])),
  })
  const sweep = createOfflineSweep({store: context.store, events: context.events, clock: context.clock, logger: context.logger, intervalMs: options.sweepIntervalMs})
  let closed = false

  return {
    name: 'registry',
    context,
    get draining() {
      return readiness.draining
    },
    set draining(value: boolean) {
      readiness.draining = value
    },
    middleware,
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
      // The agent socket is a request to a registry route: the same per-IP limit as guards.ts, before any part.
      const target = request.url ?? '/'
      if (URL.canParse(target, 'http://localhost') && REGISTRY_PATH.test(new URL(target, 'http://localhost').pathname)) {
        const wait = context.ipLimiter.take(`ip:${clientIp(request, options.proxy ?? false)}`)
        if (wait > 0) {
          refuseUpgrade(socket, 429, 'rate_limited', `Too many requests; retry in ${wait} s`, {'Retry-After': String(wait)})
          return true
        }
      }
      for (const part of parts) if (part.upgrade?.(request, socket, head)) return true
      return false
    },
    async start() {
      for (const part of parts) await part.start?.()
      sweep.start()
    },
    async close() {
      if (closed) return
      closed = true
      sweep.stop()
      for (const part of [...parts].reverse()) {
        try {
          await part.close()
        } catch (error) {
          context.logger.warn('registry part did not close cleanly', {part: part.name, error: String(error)})
        }
      }
    },
    sweep: () => sweep.tick(),
    async heartbeat() {
      for (const part of parts) await part.heartbeat?.()
    },
  }
}
