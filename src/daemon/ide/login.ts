/**
 * The IDE's login (docs/ide.md, Login): `POST /ide/login-code` (the portal
 * token itself) hands `mesh open` a one-time code and the address to open;
 * `GET /login?code=…` trades the code for a session cookie and sends the
 * browser on to the board; `POST /ide/logout` ends the session. Logins are
 * said in the debug stream under `ide.login`, never with a code or cookie.
 */
import {html} from '../../http/html.js'
import type {StaticAssets} from '../../http/static-assets.js'
import {clearedSessionCookie, sessionCookie, sessionCookieName} from '../browser-sessions.js'
import type {DaemonContext} from '../context.js'
import {sessionCookieOf, sessionOf} from '../http/guards.js'
import {answer, type Route} from '../route-table.js'
import {LOGIN_TAG, PAGE_HEADERS} from './constants.js'
import {renderNoticePage} from './frame.js'

const hostOf = (headers: Record<string, string | string[] | undefined>) => (typeof headers.host === 'string' ? headers.host : '')

export function loginRoutes(context: DaemonContext, assets: StaticAssets): Route[] {
  return [
    {
      method: 'POST',
      path: '/ide/login-code',
      auth: 'bearer',
      handle(request) {
        const {code, expiresAt} = context.sessions.issueCode()
        context.debug.log({lvl: 'info', tag: LOGIN_TAG, msg: 'a login code was issued (good once, for 60 s)'})
        // The Host the caller used, already checked to be loopback by the perimeter: the browser opens the same address.
        const url = `http://${hostOf(request.headers)}/login?code=${code}`
        return answer({code, url, expires_at: new Date(expiresAt).toISOString()}, 201)
      },
    },
    {
      method: 'GET',
      path: '/login',
      auth: 'none',
      handle(request) {
        const host = hostOf(request.headers)
        const cookieName = sessionCookieName(host)
        const current = sessionOf(request.headers, context.sessions)
        const session = context.sessions.redeem(request.query.code ?? '', current)
        if (!session) {
          context.debug.log({lvl: 'warn', tag: LOGIN_TAG, msg: 'a login was refused: the code is unknown, used already, or older than 60 s'})
          const page = renderNoticePage(assets, {
            title: 'This login link does not work',
            projectId: context.projectId(),
            lines: [html`A login link works once, within 60 seconds of <code>mesh open</code>. This one was used already, has expired, or was never issued by this daemon.`, html`Run <code>mesh open</code> in the project for a new one.`],
          })
          return answer(page, 401, {...PAGE_HEADERS})
        }
        // A browser already logged in keeps its session (and its other open pages their CSRF token).
        const kept = session === current
        context.debug.log({lvl: 'info', tag: LOGIN_TAG, msg: kept ? 'a browser logged in to the IDE again (its session is kept)' : 'a browser logged in to the IDE'})
        // 303 to the board: the code leaves the address bar and the history, and a reload does not try it again.
        return answer('<!doctype html><title>Logged in</title><a href="/">Continue to the board</a>', 303, {
          ...PAGE_HEADERS,
          Location: '/',
          ...(kept ? {} : {'Set-Cookie': sessionCookie(cookieName, session.id)}),
        })
      },
    },
    {
      // The page asks before it reconnects its socket: 401 `session_expired` once the daemon was restarted.
      method: 'GET',
      path: '/ide/session',
      auth: 'portal',
      handle: () => ({logged_in: true}),
    },
    {
      method: 'POST',
      path: '/ide/logout',
      auth: 'portal',
      handle(request) {
        const cookie = sessionCookieOf(request.headers)
        if (cookie) context.sessions.end(cookie)
        context.debug.log({lvl: 'info', tag: LOGIN_TAG, msg: 'a browser logged out of the IDE'})
        return answer({logged_out: true}, 200, {'Set-Cookie': clearedSessionCookie(sessionCookieName(hostOf(request.headers)))})
      },
    },
  ]
}
