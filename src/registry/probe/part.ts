/**
 * The probe part of the registry: a background loop with no routes, built
 * from the RegistryContext like every other part (src/registry/types.ts).
 */
import {safeFetch} from '../../http/safe-fetch.js'
import type {RegistryContext, RegistryPart} from '../types.js'
import {PROBE_MAX_BYTES, PROBE_REQUEST_TIMEOUT_MS} from './constants.js'
import type {ProbeFetch} from './probe-agent.js'
import {createProber, type Prober} from './prober.js'

export interface ProbePartOptions {
  /** Probe private, loopback and link-local endpoints too (`--allow-private-endpoints`; tests, demos, a LAN). */
  allowPrivate?: boolean
  /** Time between passes (ms), default 60 s. */
  intervalMs?: number
  /** Delay of the first pass after start (ms), default 5 s. */
  firstPassDelayMs?: number
  /** Agents probed at once, default 4. */
  concurrency?: number
  /** Upper bound of each agent's random delay (ms), default 2 s. */
  jitterMs?: number
  /** Per-request deadline (ms), default 5 s. */
  requestTimeoutMs?: number
  /** Replaces the outbound fetch entirely (tests). */
  fetch?: ProbeFetch
}

export interface ProbePart extends RegistryPart {
  prober: Prober
}

/** Builds the prober part: operational / card_match / cached PublicCard for every online agent, saved with store.saveProbe. */
export function createProbePart(ctx: RegistryContext, options: ProbePartOptions = {}): ProbePart {
  const timeoutMs = options.requestTimeoutMs ?? PROBE_REQUEST_TIMEOUT_MS
  const fetch: ProbeFetch =
    options.fetch ?? ((url, init) => safeFetch(url, {...init, allowPrivate: options.allowPrivate ?? false, timeoutMs, maxBytes: PROBE_MAX_BYTES}))
  const prober = createProber({
    store: ctx.store,
    bus: ctx.bus,
    events: ctx.events,
    clock: ctx.clock,
    logger: ctx.logger,
    fetch,
    onProbed: (result) => ctx.metrics?.probe(result.operational === null ? 'unknown' : result.operational ? 'operational' : 'failing'),
    intervalMs: options.intervalMs,
    firstPassDelayMs: options.firstPassDelayMs,
    concurrency: options.concurrency,
    jitterMs: options.jitterMs,
  })
  return {
    name: 'probe',
    prober,
    start: () => prober.start(),
    close: () => prober.close(),
  }
}
