/**
 * The registry's request chain as one Koa middleware: guards, the core's
 * fixed routes, the parts, then the core's pattern routes. Parts run before
 * the pattern routes: their fixed paths (/agents/messages, /v1/agents/ws)
 * would otherwise be read as agent ids by /agents/:id. The core's own fixed
 * paths are matched exactly first (no part serves them), which keeps the
 * heartbeat off the parts' routers.
 */
import type {Middleware} from 'koa'
import compose from 'koa-compose'
import type {RegistryRoutes} from './routes.js'

export function registryChain(input: {guards: Middleware; routes: RegistryRoutes; parts: Middleware[]}): Middleware {
  const {router, fixed} = input.routes
  return compose([
    input.guards,
    fixed,
    ...input.parts,
    router.routes() as unknown as Middleware,
    router.allowedMethods() as unknown as Middleware,
  ]) as Middleware
}
