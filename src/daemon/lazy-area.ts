/**
 * An area loaded on its first request (issue 21, a quicker start): its routes
 * are declared here as data (method, path, auth) so the router knows them at
 * start, and the area's modules are imported the first time one is hit. Only
 * for areas that are routes alone: one with background work, /health fields
 * or warnings must run from the start, so it is listed eagerly in areas.ts.
 * docs/architecture.md, Start-up.
 */
import type {DaemonArea} from './area.js'
import type {DaemonContext} from './context.js'
import type {Route} from './route-table.js'

/** What the router must know of a route before its area is loaded. */
export type DeclaredRoute = Pick<Route, 'method' | 'path' | 'auth'>

export type AreaBuilder = (context: DaemonContext) => DaemonArea

const key = (route: DeclaredRoute) => `${route.method} ${route.path} ${route.auth}`

/**
 * Throws when the loaded area is not exactly what was declared, in the same order (the router tries routes in
 * the order they were added): a programming error, which test/daemon/areas.test.ts catches.
 */
export function checkDeclared(area: DaemonArea, declared: DeclaredRoute[]): void {
  const wanted = declared.map(key).join('\n')
  const got = area.routes.map(key).join('\n')
  if (wanted !== got) throw new Error(`the ${area.name} area's routes are not the ones declared in src/daemon/areas.ts:\ndeclared:\n${wanted}\nloaded:\n${got}`)
  if (area.start || area.close || area.warnings || area.health) throw new Error(`the ${area.name} area has work of its own besides routes: list it eagerly in src/daemon/areas.ts`)
}

/** An area builder that imports `load()`'s area on the first request to one of `declared`. */
export function lazyArea(name: string, declared: DeclaredRoute[], load: () => Promise<AreaBuilder>): AreaBuilder {
  return (context) => {
    let loaded: Promise<Map<string, Route>> | undefined
    const routes = () =>
      (loaded ??= load().then((build) => {
        const area = build(context)
        checkDeclared(area, declared)
        return new Map(area.routes.map((route) => [key(route), route]))
      }))
    return {
      name,
      routes: declared.map((route) => ({...route, handle: async (request) => (await routes()).get(key(route))!.handle(request)})),
    }
  }
}
