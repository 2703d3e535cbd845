/**
 * The agent side of the heartbeat (spec "Heartbeat procedure"): every
 * interval (< 5 min) get a token, then PATCH me with the card. Survives
 * registry restarts with capped, jittered backoff; stops on wrong
 * credentials or a card the registry refuses. Transport-free apart from the
 * client it is given; the CLI renders its events.
 */
import {setTimeout as sleepFor} from 'node:timers/promises'
import type {RegistryClient} from '../client/registry/registry-client.js'
import {isMeshError, MeshError} from '../lib/errors.js'

export type HeartbeatEvent =
  | {event: 'heartbeat'; agent_id: string; at: string; beat: number; display_name: string; owner_class: string; warnings?: string[]; next_in_ms: number}
  | {event: 'retry'; agent_id: string; at: string; attempt: number; error: {code: string; message: string}; next_in_ms: number}
  | {event: 'card_invalid'; agent_id: string; at: string; error: {code: string; message: string; field?: string}}
  | {event: 'stopped'; agent_id: string; at: string; beats: number}

export interface HeartbeatOptions {
  client: Pick<RegistryClient, 'token' | 'patchMe'>
  agentId: string
  apiKey: string
  /** Reads and checks the card; called before every beat so edits propagate on the next one. */
  loadCard: () => Promise<Record<string, unknown>>
  /** Time between beats, ms; spec: under 5 minutes. */
  intervalMs: number
  onEvent: (event: HeartbeatEvent) => void
  signal: AbortSignal
  /** Stop after the first successful beat. */
  once?: boolean
  maxBackoffMs?: number
  clock?: () => number
  random?: () => number
}

/** Errors no retry can fix: wrong credentials, a refused card. */
const isFatal = (error: unknown) =>
  isMeshError(error) && (error.code === 'invalid_credentials' || error.kind === 'invalid' || error.kind === 'too_large' || error.kind === 'forbidden')

/** Runs until the signal aborts (or after one beat with `once`); throws a MeshError on a fatal refusal. */
export async function runHeartbeat(options: HeartbeatOptions): Promise<{beats: number}> {
  const clock = options.clock ?? Date.now
  const random = options.random ?? Math.random
  const maxBackoff = options.maxBackoffMs ?? 30_000
  const at = () => new Date(clock()).toISOString()
  const wait = async (ms: number) => {
    try {
      await sleepFor(ms, undefined, {signal: options.signal})
    } catch {
      // Aborted: the loop checks the signal next.
    }
  }
  let card = await options.loadCard()
  let beats = 0
  let attempt = 0
  while (!options.signal.aborted) {
    try {
      card = await options.loadCard()
    } catch (error) {
      const e = isMeshError(error) ? error : new MeshError('invalid', 'card_unreadable', String((error as Error).message))
      options.onEvent({event: 'card_invalid', agent_id: options.agentId, at: at(), error: {code: e.code, message: e.message, ...(e.field ? {field: e.field} : {})}})
    }
    try {
      const {token} = await options.client.token(options.agentId, options.apiKey)
      const pushed = await options.client.patchMe(token, {
        ...(typeof card.description === 'string' ? {description: card.description} : {}),
        ...(Array.isArray(card.tags) ? {capabilities: card.tags} : {}),
        agent_card: card,
      })
      beats++
      attempt = 0
      options.onEvent({
        event: 'heartbeat',
        agent_id: options.agentId,
        at: at(),
        beat: beats,
        display_name: pushed.display_name,
        owner_class: pushed.owner_class,
        ...(pushed.warnings ? {warnings: pushed.warnings} : {}),
        next_in_ms: options.once ? 0 : options.intervalMs,
      })
      if (options.once) break
      await wait(options.intervalMs)
    } catch (error) {
      if (isFatal(error)) throw error
      attempt++
      const retryAfterMs = isMeshError(error) && typeof error.details?.retry_after === 'number' ? error.details.retry_after * 1000 : 0
      const backoff = Math.min(maxBackoff, 1000 * 2 ** Math.min(attempt - 1, 10))
      // Jitter spreads many agents reconnecting to a restarted registry.
      const delay = Math.max(retryAfterMs, Math.round(backoff * (0.5 + random() / 2)))
      const e = isMeshError(error) ? error : new MeshError('unavailable', 'heartbeat_failed', String((error as Error)?.message ?? error))
      options.onEvent({event: 'retry', agent_id: options.agentId, at: at(), attempt, error: {code: e.code, message: e.message}, next_in_ms: delay})
      await wait(delay)
    }
  }
  options.onEvent({event: 'stopped', agent_id: options.agentId, at: at(), beats})
  return {beats}
}
