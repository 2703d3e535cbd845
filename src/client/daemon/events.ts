/**
 * A subscription to the daemon's `WS /events` (docs/daemon-api.md, Events):
 * every event of its bus as one `{type, ts, data}` message. The portal token
 * goes in the Authorization header, never in the URL, so no log or error
 * message can carry it. `ws` is imported lazily.
 */
import type {IncomingMessage} from 'node:http'
import {MeshError} from '../../lib/errors.js'
import {EVENTS_PATH} from '../../protocol/daemon.js'
import {parseDaemonEvent, type DaemonEventMessage} from '../../protocol/events.js'
import {KIND_OF_STATUS} from '../http-json.js'
import {printable} from '../printable.js'

export interface EventsOptions {
  /** `http://127.0.0.1:<port>` */
  url: string
  token: string
  onEvent(event: DaemonEventMessage): void
}

export interface EventsSubscription {
  /** Resolves once the socket is open; rejects with a MeshError (the daemon's code) when it is refused or unreachable. */
  opened: Promise<void>
  /** Resolves when the socket is closed, by either side, or failed to open; never rejects. */
  closed: Promise<{code: number; reason: string}>
  close(): void
}

const MAX_REFUSAL_BYTES = 16 * 1024

async function refusalOf(res: IncomingMessage): Promise<MeshError> {
  let text = ''
  for await (const chunk of res) {
    text += String(chunk)
    if (text.length > MAX_REFUSAL_BYTES) break
  }
  const status = res.statusCode ?? 0
  let error: {code?: unknown; message?: unknown} | undefined
  try {
    error = (JSON.parse(text) as {error?: typeof error}).error
  } catch {
    // Not the daemon's error body: the status says enough.
  }
  const code = typeof error?.code === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(error.code) ? error.code : `http_${status}`
  const message = typeof error?.message === 'string' ? printable(error.message).slice(0, 500) : `The daemon refused ${EVENTS_PATH} (HTTP ${status})`
  return new MeshError(KIND_OF_STATUS[status] ?? 'unavailable', code, message)
}

/** Opens `/events`; listen with `onEvent` until `close()` or the daemon goes away (`closed`). */
export function subscribeEvents(options: EventsOptions): EventsSubscription {
  let closeSocket: () => void = () => {}
  let closeRequested = false
  let resolveClosed!: (value: {code: number; reason: string}) => void
  const closed = new Promise<{code: number; reason: string}>((resolve) => (resolveClosed = resolve))
  const opened = (async () => {
    const {default: WebSocket} = await import('ws')
    const ws = new WebSocket(`${options.url.replace(/^http/, 'ws')}${EVENTS_PATH}`, {headers: {authorization: `Bearer ${options.token}`}, perMessageDeflate: false})
    closeSocket = () => ws.close(1000, 'client_exit')
    if (closeRequested) closeSocket()
    ws.on('message', (data) => {
      const event = parseDaemonEvent(String(data))
      if (event) options.onEvent(event)
    })
    ws.on('close', (code, reason) => resolveClosed({code, reason: reason.toString()}))
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('unexpected-response', (_request, res) => {
        void refusalOf(res).then((error) => {
          ws.terminate()
          resolveClosed({code: 1006, reason: error.message})
          reject(error)
        })
      })
      ws.on('error', (error) => {
        resolveClosed({code: 1006, reason: error.message})
        reject(new MeshError('unavailable', 'daemon_unreachable', `Cannot open the daemon's event stream at ${options.url}: ${error.message}`, {cause: error}))
      })
    })
  })()
  // A caller that never awaits `opened` must not see an unhandled rejection.
  opened.catch(() => {})
  return {
    opened,
    closed,
    close() {
      closeRequested = true
      closeSocket()
    },
  }
}
