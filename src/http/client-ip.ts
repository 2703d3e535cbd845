import type {IncomingMessage} from 'node:http'

/**
 * The client address every per-IP limit keys on, for Koa routes (the host
 * sets `ctx.ip` from it) and raw WebSocket upgrades alike.
 *
 * Without `proxy`, the socket's peer address; forwarded headers are ignored,
 * so a client cannot pick its own key. With `proxy` (the server sits behind
 * one reverse proxy), the last address of `X-Forwarded-For`: the one that
 * proxy appended (Koa's `proxy` with `maxIpsCount: 1`). Addresses a client
 * writes into the header itself come before it and are never used, so a
 * client cannot dodge a limit by sending its own X-Forwarded-For.
 */
export function clientIp(request: IncomingMessage, proxy: boolean): string {
  const peer = request.socket?.remoteAddress ?? ''
  if (!proxy) return peer
  const header = request.headers['x-forwarded-for']
  const forwarded = Array.isArray(header) ? header.join(',') : (header ?? '')
  const last = forwarded.split(',').map((entry) => entry.trim()).filter(Boolean).at(-1)
  return last ?? peer
}
