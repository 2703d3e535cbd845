/**
 * What runs before every registry route and part: the per-IP rate limit and
 * the legacy hub's Deprecation header. Kept apart so the messaging part's
 * legacy routes get the same treatment.
 */
import type {Context, Next} from 'koa'
import {LEGACY_DEPRECATION, LEGACY_PATH, REGISTRY_PATH} from '../constants.js'
import type {CoreRegistryContext} from '../context.js'

export function registryGuards(ctx: CoreRegistryContext) {
  return async (koa: Context, next: Next) => {
    if (REGISTRY_PATH.test(koa.path)) ctx.ipLimiter.hit(`ip:${koa.ip}`)
    if (LEGACY_PATH.test(koa.path)) {
      // DECISIONS: legacy routes are served, marked deprecated (RFC 9745 + successor link).
      koa.set('Deprecation', LEGACY_DEPRECATION)
      koa.set('Link', `<${ctx.publicUrl}/v1/agents>; rel="successor-version"`)
    }
    await next()
  }
}
