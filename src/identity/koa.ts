/**
 * Mesh-Sig as Koa middleware, for the registry and for agents that want to
 * know who calls them (spec: `GET /v1/whoami`, free tier per signed caller).
 */
import type {Context, Middleware, Next} from 'koa'
import {readJsonBody} from '../http/json-body.js'
import {unauthorized} from '../lib/errors.js'
import {MESH_SIG_HEADER} from './constants.js'
import {verifyMeshSig} from './mesh-sig.js'
import type {NonceStore} from './nonce-store.js'

export interface MeshSigMiddlewareOptions {
  nonces: NonceStore
  clock?: () => number
  /** true: a request without a header is refused with 401 `signature_required`. */
  required?: boolean
  /** Body size cap in bytes (default 64 KB). */
  bodyLimit?: number
}

/**
 * Verifies `Mesh-Sig` when present (always, when `required`) and sets
 * `ctx.state.signer = {pubkey}`. An invalid signature is always a 401, even
 * when not required: a caller that signs expects the signature to count.
 * The body is read through readJsonBody, so handlers get the same bytes.
 */
export function meshSigMiddleware(options: MeshSigMiddlewareOptions): Middleware {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get(MESH_SIG_HEADER)
    if (!header) {
      if (options.required) throw unauthorized('signature_required', 'This route needs a Mesh-Sig signed request')
      return next()
    }
    const body = await readJsonBody(ctx, options.bodyLimit)
    const signer = await verifyMeshSig({header, method: ctx.method, path: ctx.originalUrl, body: body.raw, nonces: options.nonces, clock: options.clock})
    ctx.state.signer = {pubkey: signer.pubkey}
    return next()
  }
}
