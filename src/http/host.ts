import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import Koa from 'koa'
import type {Logger} from '../lib/log.js'
import {clientIp} from './client-ip.js'
import {errorMiddleware, notFoundMiddleware, requestTargetGuard} from './error-middleware.js'
import {listen, type Listening} from './listen.js'
import {httpMetricsMiddleware, type HttpMetrics} from './metrics.js'
import {writeRawError} from './raw-error.js'
import type {MeshService} from './service.js'

export interface HostOptions {
  services: MeshService[]
  logger: Logger
  /**
   * Behind a reverse proxy: every per-IP limit keys on the address the proxy
   * forwarded (clientIp in ./client-ip.ts). Services that take WebSocket
   * upgrades get the same setting, for the raw upgrade request.
   */
  proxy?: boolean
  /** Counts every answered request by route pattern and status (prometheus.ts; absent: nothing is counted). */
  httpMetrics?: HttpMetrics
}

/** One Koa app serving every given service, with mesh's JSON errors and 404s around them. */
export function createHostApp(options: HostOptions): Koa {
  const proxy = options.proxy ?? false
  const app = new Koa({proxy, maxIpsCount: 1})
  // Koa's own error logging would print stacks; errorMiddleware handles every error.
  app.silent = true
  // Outside the error middleware: the status it settles on is the one counted.
  if (options.httpMetrics) app.use(httpMetricsMiddleware(options.httpMetrics))
  // One rule for the client address, on routes (ctx.ip) as on upgrades (docs/registry.md "Behind a proxy").
  app.use((ctx, next) => {
    ctx.request.ip = clientIp(ctx.req, proxy)
    return next()
  })
  app.use(errorMiddleware(options.logger))
  app.use(requestTargetGuard())
  app.use(notFoundMiddleware())
  for (const service of options.services) app.use(service.middleware)
  return app
}

/**
 * Refuses a WebSocket upgrade with a real HTTP status and mesh's JSON error
 * body, before any handshake (spec: a private cluster's socket never opens).
 */
export const refuseUpgrade = writeRawError

/** Offers an upgrade to each service in turn; nobody's path answers 404 on the raw socket. */
export function routeUpgrade(services: MeshService[]) {
  return (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      if (!request.url || !URL.canParse(request.url, 'http://localhost')) {
        return refuseUpgrade(socket, 400, 'bad_request', 'The upgrade request target is not a valid URL')
      }
      for (const service of services) if (service.upgrade?.(request, socket, head)) return
    } catch {
      // A bug in one service's upgrade handler must not stop the process.
      return refuseUpgrade(socket, 400, 'bad_request', 'The upgrade request could not be read')
    }
    refuseUpgrade(socket, 404, 'not_found', 'No WebSocket route at this path')
  }
}

export interface HostedServer extends Listening {
  app: Koa
  /** Closes every service (sockets get `server_shutdown`), then the HTTP server. */
  stop(): Promise<void>
}

/** Serves the services on one port (0 = any free port) and starts their background work. */
export async function serve(options: HostOptions & {port?: number; host?: string}): Promise<HostedServer> {
  const app = createHostApp(options)
  const listening = await listen(app.callback(), options.port ?? 0, options.host ?? '127.0.0.1')
  listening.server.on('upgrade', routeUpgrade(options.services))
  for (const service of options.services) await service.start?.()
  let stopped: Promise<void> | undefined
  return {
    ...listening,
    app,
    stop() {
      stopped ??= (async () => {
        for (const service of options.services) await service.close('server_shutdown')
        await listening.close()
      })()
      return stopped
    },
  }
}
