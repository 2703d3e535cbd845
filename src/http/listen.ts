import {createServer, type RequestListener, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface Listening {
  server: Server
  port: number
  /** http://host:port of the bound socket. */
  url: string
  close(): Promise<void>
}

/** Binds an HTTP server (port 0 picks a free port) and resolves once listening. */
export async function listen(handler: RequestListener, port = 0, host = '127.0.0.1'): Promise<Listening> {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}
