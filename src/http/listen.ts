import {createServer, type RequestListener, type Server} from 'node:http'
import {createServer as createNetServer, type AddressInfo} from 'node:net'
import type {Duplex} from 'node:stream'
import {writeRawError} from './raw-error.js'

export interface Listening {
  server: Server
  port: number
  /** http://host:port of the bound socket. */
  url: string
  close(): Promise<void>
}

/**
 * Node's own answer to a request its parser refuses (a bad Content-Length,
 * oversized headers, a malformed request line) is a bare status line; mesh
 * answers with its JSON error body instead. The status follows Node's choice.
 */
function onClientError(error: Error & {code?: string}, socket: Duplex) {
  // Nobody is left to read an answer, or a response is already on the wire.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as {_httpMessage?: {headersSent?: boolean}})._httpMessage?.headersSent) {
    socket.destroy()
    return
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') writeRawError(socket, 431, 'headers_too_large', 'The request headers are too large')
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') writeRawError(socket, 408, 'request_timeout', 'The request was not received in time')
  else writeRawError(socket, 400, 'bad_request', 'The request is not valid HTTP/1.1')
}

/** Binds an HTTP server (port 0 picks a free port) and resolves once listening. */
export async function listen(handler: RequestListener, port = 0, host = '127.0.0.1'): Promise<Listening> {
  const server = createServer(handler)
  server.on('clientError', onClientError)
  // No mesh service is a proxy; without a listener Node would drop the socket without a word.
  server.on('connect', (_request, socket: Duplex) => writeRawError(socket, 405, 'method_not_allowed', 'CONNECT is not served here'))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  return {
    server,
    port: address.port,
    url: localUrl(host, address.port),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}

/** The address a bound socket is reached at from this machine: IPv6 in brackets, every interface as 127.0.0.1. */
export function localUrl(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host
  return `http://${shown}:${port}`
}

/**
 * Asks the OS for a free port. The port may be taken by someone else before
 * it is bound (a small race).
 */
export async function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer()
    probe.once('error', fail)
    probe.listen(0, host, () => {
      const {port} = probe.address() as {port: number}
      probe.close(() => done(port))
    })
  })
}

/** Whether nothing listens on the port of `host` right now (`mesh up` takes 8080 only when it is free). */
export async function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const probe = createNetServer()
    probe.once('error', () => done(false))
    probe.listen(port, host, () => probe.close(() => done(true)))
  })
}

/**
 * The one public-URL strategy of every server: the port and the public URL
 * are settled before the services are built, because the services put the
 * URL in what they serve (cards, hub_url, handles, cluster ws URLs). `port`
 * 0 becomes a free port now; the public URL is the given one without
 * trailing slashes, else the address the server will listen on
 * (DECISIONS: Public address).
 */
export async function publicAddress(options: {host: string; port: number; publicUrl?: string}): Promise<{port: number; publicUrl: string}> {
  const port = options.port === 0 ? await freePort(options.host) : options.port
  return {port, publicUrl: options.publicUrl?.replace(/\/+$/, '') ?? localUrl(options.host, port)}
}
