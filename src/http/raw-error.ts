/**
 * mesh's JSON error written straight onto a socket, for the moments no Koa
 * context exists: a refused WebSocket upgrade, or a request Node's parser
 * could not read.
 */
import type {Duplex} from 'node:stream'

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
}

/**
 * Writes one complete HTTP/1.1 response with `{"error": {"code", "message"}}`
 * and closes the socket. end() only half-closes it; a peer that never closes
 * its side would keep it (and whatever it holds) open, so it is destroyed
 * once the answer is written, as ws does with its own refusals.
 */
export function writeRawError(socket: Duplex, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  const body = JSON.stringify({error: {code, message}})
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  socket.once('finish', () => socket.destroy())
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`)
}
