/**
 * The IDE's pages (docs/ide.md): `GET /` answers a browser with the board
 * (a JSON client keeps the daemon's usual 404), a browser without a session
 * with a page saying how to log in; `GET /ide/roadmap`, `/ide/team` and
 * `/ide/project` the other views; `GET /ide/tasks/<id>` a task as the
 * board's dialog shows it. Pages need the session cookie; every call the
 * page makes goes to the daemon's own routes with the cookie and the CSRF
 * token (src/daemon/http/guards.ts).
 */
import {html} from '../../http/html.js'
import type {StaticAssets} from '../../http/static-assets.js'
import type {BrowserSession} from '../browser-sessions.js'
import type {DaemonContext} from '../context.js'
import {sessionOf} from '../http/guards.js'
import {answer, type Route, type RouteRequest} from '../route-table.js'
import {assertTaskId, taskIndex} from '../tasks/index.js'
import {prefersHtml} from './accept.js'
import {renderBoardPage} from './board/page.js'
import {renderTaskView} from './board/task-view.js'
import {PAGE_HEADERS} from './constants.js'
import {renderNoticePage} from './frame.js'
import {renderFilePage} from './project/file-view.js'
import {renderProjectPage} from './project/page.js'
import {renderRoadmapFragment, renderRoadmapPage} from './roadmap/page.js'
import {renderTeamPage} from './team/page.js'

/** What a page route renders for a logged-in browser: the page, or the page with its status. */
type PageRenderer = (session: BrowserSession, request: RouteRequest) => Promise<string | {status: number; body: string}> | string

export function pageRoutes(context: DaemonContext, assets: StaticAssets): Route[] {
  /** A page for a session; a page saying how to log in without one. */
  const page = (render: PageRenderer) => async (request: RouteRequest) => {
    const session = sessionOf(request.headers, context.sessions)
    if (session) {
      const rendered = await render(session, request)
      return typeof rendered === 'string' ? answer(rendered, 200, {...PAGE_HEADERS}) : answer(rendered.body, rendered.status, {...PAGE_HEADERS})
    }
    const notice = renderNoticePage(assets, {
      title: 'Log in to the IDE',
      projectId: context.projectId(),
      lines: [html`The IDE is locked to this project's operator. Run <code>mesh open</code> in the project: it opens the board logged in (or prints a one-time link with <code>--print</code>).`],
    })
    return answer(notice, 401, {...PAGE_HEADERS})
  }
  const board = page((session) => renderBoardPage(context, assets, session.csrf))
  return [
    {
      method: 'GET',
      path: '/',
      auth: 'session',
      // A JSON client (or curl, which accepts anything) keeps the answer it always had: the daemon's 404.
      handle: (request) => (prefersHtml(request.headers.accept) ? board(request) : answer(undefined, 404)),
    },
    {
      // The Team view (docs/ide.md, Team): a page of its own path, since `GET /team` is the roster's JSON.
      method: 'GET',
      path: '/ide/team',
      auth: 'session',
      handle: page((session) => renderTeamPage(context, assets, session.csrf)),
    },
    {
      // A task as the board's dialog shows it: an HTML fragment, for the operator (the page's session and CSRF token).
      method: 'GET',
      path: '/ide/tasks/:id',
      auth: 'portal',
      handle: async (request) => answer(await renderTaskView(context.root, await taskIndex(context).records(), assertTaskId(request.params.id)), 200, {...PAGE_HEADERS}),
    },
    {method: 'GET', path: '/ide/roadmap', auth: 'session', handle: page((session) => renderRoadmapPage(context, assets, session.csrf))},
    {method: 'GET', path: '/ide/project', auth: 'session', handle: page((session, request) => renderProjectPage(context, assets, session.csrf, request.query.file))},
    // A project file, read-only, as the Project view's validation links open it.
    {method: 'GET', path: '/ide/file', auth: 'session', handle: page((session, request) => renderFilePage(context, assets, session.csrf, request.query.path ?? ''))},
    {
      // The Roadmap view's content again, for its page after a rebuild: an HTML fragment, every value escaped.
      method: 'GET',
      path: '/ide/roadmap/fragment',
      auth: 'portal',
      handle: async () => answer((await renderRoadmapFragment(context)).value, 200, {...PAGE_HEADERS}),
    },
  ]
}
