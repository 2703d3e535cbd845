/**
 * A daemon area's routes as plain data: method, path, who may call it and a
 * handler that never sees Koa. src/daemon/http/app.ts turns every table into
 * the one router; areas (workflows, links, tasks, versions, team, chat…) only
 * add a table. docs/daemon-api.md documents each route.
 */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/**
 * `none`: anyone on this machine; `portal`: the operator — the portal token,
 * or the IDE's browser session with its CSRF token (every write route,
 * DECISIONS: Daemon auth; docs/ide.md); `bearer`: the portal token itself,
 * never a browser session (minting an IDE login code); `member`: a team
 * member's token, and `session`: the IDE's session cookie on a page the
 * browser navigates to, both checked by the area itself.
 */
export type RouteAuth = 'none' | 'portal' | 'bearer' | 'member' | 'session'

export interface RouteRequest {
  params: Record<string, string>
  /** Query parameters; a repeated one is refused before the handler runs. */
  query: Record<string, string>
  headers: Record<string, string | string[] | undefined>
  /** The JSON body (an object), read on first call; 400/413 when malformed or too large. */
  body(): Promise<Record<string, unknown>>
}

export interface RouteAnswer {
  status?: number
  body: unknown
  headers?: Record<string, string>
}

export interface Route {
  method: RouteMethod
  /** @koa/router path, e.g. `/links/:id`. */
  path: string
  auth: RouteAuth
  handle(request: RouteRequest): Promise<RouteAnswer | unknown> | RouteAnswer | unknown
}

/** An answer with a status or headers; a handler may also return a bare body (200). */
export const answer = (body: unknown, status = 200, headers?: Record<string, string>): RouteAnswer & {__answer: true} => ({body, status, headers, __answer: true})

export const isAnswer = (value: unknown): value is RouteAnswer => typeof value === 'object' && value !== null && (value as {__answer?: boolean}).__answer === true
