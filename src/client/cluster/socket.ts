/**
 * One attempt at the member socket: opens the WebSocket and reports exactly
 * one outcome — refused or unreachable (`onFail`), or open then closed
 * (`onClose`) — with text frames in between. A refused upgrade is read from
 * ws's `unexpected-response`, so 401 and 404 carry the relay's own message
 * (spec: a private cluster's socket never opens).
 */
import type {ClientRequest, IncomingMessage} from 'node:http'
import type WebSocketClass from 'ws'
import {MeshError, notFound, unauthorized} from '../../lib/errors.js'

export type Socket = InstanceType<typeof WebSocketClass>

export interface AttemptHandlers {
  onText(text: string): void
  onBinary(): void
  /** Before the socket opened: refused (with the HTTP status's meaning) or unreachable. */
  onFail(error: MeshError): void
  /** After it opened: the socket closed. */
  onClose(code: number): void
}

/** The query carries the cluster token: never show it in messages. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&]*/g, '$1***')
}

/** Starts one connection attempt; the returned socket is live until one outcome was reported. */
export function openAttempt(WebSocket: typeof WebSocketClass, url: string, handshakeTimeout: number, handlers: AttemptHandlers): Socket {
  const socket = new WebSocket(url, {handshakeTimeout})
  let opened = false
  let over = false
  const fail = (error: MeshError) => {
    if (over) return
    over = true
    handlers.onFail(error)
  }
  socket.on('unexpected-response', (request: ClientRequest, response: IncomingMessage) => {
    readRefusal(response).then((error) => {
      request.destroy()
      fail(error)
    })
  })
  socket.on('error', (error: Error) => {
    if (!opened) fail(new MeshError('unavailable', 'relay_unreachable', `Cannot reach the relay at ${redactUrl(url)}: ${error.message}`, {cause: error}))
  })
  socket.on('open', () => (opened = true))
  socket.on('message', (data: WebSocketClass.RawData, isBinary: boolean) => (isBinary ? handlers.onBinary() : handlers.onText(rawDataText(data))))
  socket.on('close', (code: number) => {
    if (!opened) return fail(new MeshError('unavailable', 'relay_unreachable', `The relay closed the connection before it opened (code ${code})`))
    if (over) return
    over = true
    handlers.onClose(code)
  })
  return socket
}

function rawDataText(data: WebSocketClass.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

/** Reads the relay's JSON refusal (`{error: {code, message}}`) from a refused upgrade. */
async function readRefusal(response: IncomingMessage): Promise<MeshError> {
  const status = response.statusCode ?? 0
  const chunks: Buffer[] = []
  let size = 0
  const body = await new Promise<string>((resolve) => {
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'))
    response.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= 8192) chunks.push(chunk)
    })
    response.on('end', done).on('error', done).on('aborted', done)
  })
  let detail = ''
  try {
    const parsed = JSON.parse(body) as {error?: {code?: string; message?: string}}
    if (parsed.error?.message) detail = `: ${parsed.error.message}`
  } catch {
    // Not mesh's JSON error: the status alone must do.
  }
  if (status === 401) return unauthorized('cluster_unauthorized', `The relay refused to let you in (401)${detail || ': wrong or missing cluster token'}`)
  if (status === 403) return new MeshError('forbidden', 'cluster_forbidden', `The relay refused the connection (403)${detail}`)
  if (status === 404) return notFound('cluster_not_found', `No such cluster (404)${detail}`)
  if (status === 429) return new MeshError('rate_limited', 'rate_limited', `The relay is rate limiting connections (429)${detail}`)
  return new MeshError('unavailable', 'relay_refused', `The relay refused the WebSocket upgrade (${status})${detail}`)
}
