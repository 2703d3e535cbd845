/**
 * Mesh-Sig as Koa middleware, for the registry and for agents that want to
 * know who calls them (spec: `GET /v1/whoami`, free tier per signed caller).
 */
import type {Context, Middleware, Next} from 'koa'
import {readJsonBody} from '../http/json-body.js'
import {unauthorized} from '../lib/errors.js'
import {normalizeAudience, requestAudience} from './audience.js'
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
  /**
   * The server's public URL: a v2 signature must name its origin (issue 18).
   * Without it, the origin the request was addressed to (the Host header, or
   * X-Forwarded-Proto/Host when the app trusts its proxy) — which a replayer
   * chooses, so pass it wherever the server knows its address.
   */
  publicUrl?: string
}

/** What the middleware sets as `ctx.state.signer`. */
export interface MeshSigSigner {
  pubkey: string
  /** Set for a v2 signature, which names this server; absent for v1, which any server would accept. */
  audience?: string
}

/**
 * Verifies `Mesh-Sig` when present (always, when `required`) and sets
 * `ctx.state.signer = {pubkey, audience?}` (MeshSigSigner). An invalid signature is always a 401, even
 * when not required: a caller that signs expects the signature to count.
 * The body is read through readJsonBody, so handlers get the same bytes.
 */
export function meshSigMiddleware(options: MeshSigMiddlewareOptions): Middleware {
  let fixedAudience: string | null = null
  if (options.publicUrl !== undefined) {
    try {
      fixedAudience = normalizeAudience(options.publicUrl)
    } catch (error) {
      throw new TypeError(`meshSigMiddleware: publicUrl ${(error as Error).message}`)
    }
  }
  return async (ctx: Context, next: Next) => {
    const header = ctx.get(MESH_SIG_HEADER)
    if (!header) {
      if (options.required) throw unauthorized('signature_required', 'This route needs a Mesh-Sig signed request')
      return next()
    }
    const body = await readJsonBody(ctx, options.bodyLimit)
    const audience = fixedAudience ?? requestAudience(ctx.protocol, ctx.host)
    const signer = await verifyMeshSig({header, method: ctx.method, path: ctx.originalUrl, body: body.raw, nonces: options.nonces, clock: options.clock, audience})
    const state: MeshSigSigner = {pubkey: signer.pubkey}
    if (signer.audience) state.audience = signer.audience
    ctx.state.signer = state
    return next()
  }
}
