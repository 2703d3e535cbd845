/**
 * Follows the agent WebSocket for `mesh inbox watch`: reconnects with capped,
 * jittered backoff after a drop or a node shutdown, re-mints the token when
 * the registry refuses it, and stops on abort or on credentials that no
 * fresh token can fix. `ws` is imported lazily.
 */
import type {IncomingMessage} from 'node:http'
import {setTimeout as sleepFor} from 'node:timers/promises'
import {MeshError} from '../../lib/errors.js'
import {AGENT_WS_PATH} from '../../protocol/registry.js'
import type {RegistrySession} from './registry-client.js'

export type WatchEvent = {event: 'connecting'; url: string} | {event: 'reconnecting'; in_ms: number; reason: string}

export interface WatchOptions {
  session: RegistrySession
  onFrame(frame: Record<string, unknown>): void
  onEvent?(event: WatchEvent): void
  signal: AbortSignal
  /** Sends these client frames once connected (e.g. connect_to); mostly for tests. */
  initialFrames?: unknown[]
  maxBackoffMs?: number
  random?: () => number
}

interface Outcome {
  kind: 'closed' | 'refused'
  status?: number
  code?: string
  message: string
  welcomed: boolean
}

async function readRefusal(res: IncomingMessage): Promise<{code?: string; message: string}> {
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    return {code: body?.error?.code, message: body?.error?.message ?? `HTTP ${res.statusCode}`}
  } catch {
    return {message: `HTTP ${res.statusCode}`}
  }
}

/** Resolves when the signal aborts; throws a MeshError when the registry keeps refusing the agent. */
export async function watchAgentSocket(options: WatchOptions): Promise<void> {
  const {default: WebSocket} = await import('ws')
  const random = options.random ?? Math.random
  const maxBackoff = options.maxBackoffMs ?? 30_000
  let failures = 0
  let refreshedAfterRefusal = false

  const connectOnce = () =>
    new Promise<Outcome>((resolve) => {
      const url = `${options.session.registry.replace(/^http/, 'ws')}${AGENT_WS_PATH}?token=${encodeURIComponent(options.session.token)}`
      options.onEvent?.({event: 'connecting', url: url.replace(/token=[^&]+/, 'token=…')})
      const ws = new WebSocket(url, {perMessageDeflate: false})
      let welcomed = false
      let settled = false
      const settle = (outcome: Omit<Outcome, 'welcomed'>) => {
        if (settled) return
        settled = true
        options.signal.removeEventListener('abort', onAbort)
        resolve({...outcome, welcomed})
      }
      const onAbort = () => ws.close(1000, 'client_exit')
      options.signal.addEventListener('abort', onAbort, {once: true})
      ws.on('unexpected-response', (_req, res) => {
        void readRefusal(res).then((refusal) => {
          ws.terminate()
          settle({kind: 'refused', status: res.statusCode, ...refusal})
        })
      })
      ws.on('open', () => {
        for (const frame of options.initialFrames ?? []) ws.send(JSON.stringify(frame))
      })
      ws.on('message', (data) => {
        let frame: Record<string, unknown>
        try {
          frame = JSON.parse(data.toString())
        } catch {
          return
        }
        if (frame.type === 'welcome') welcomed = true
        options.onFrame(frame)
      })
      ws.on('error', (error) => settle({kind: 'closed', message: error.message}))
      ws.on('close', (code, reason) => settle({kind: 'closed', message: `closed ${code}${reason.length ? ' ' + reason.toString() : ''}`}))
    })

  while (!options.signal.aborted) {
    const outcome = await connectOnce()
    if (options.signal.aborted) return
    if (outcome.welcomed) failures = 0
    if (outcome.kind === 'refused' && outcome.status === 401) {
      // A token past its 24 h, or revoked by a key rotation: one fresh token, then give up.
      if (refreshedAfterRefusal) throw new MeshError('unauthorized', outcome.code ?? 'invalid_token', outcome.message)
      refreshedAfterRefusal = true
      await options.session.refresh()
      continue
    }
    if (outcome.kind === 'refused' && outcome.status !== undefined && outcome.status < 500 && outcome.status !== 429) {
      throw new MeshError('invalid', outcome.code ?? `http_${outcome.status}`, outcome.message)
    }
    if (outcome.welcomed) refreshedAfterRefusal = false
    failures++
    const delay = Math.round(Math.min(maxBackoff, 500 * 2 ** Math.min(failures - 1, 10)) * (0.8 + 0.4 * random()))
    options.onEvent?.({event: 'reconnecting', in_ms: delay, reason: outcome.message})
    try {
      await sleepFor(delay, undefined, {signal: options.signal})
    } catch {
      return
    }
  }
}
