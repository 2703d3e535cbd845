/**
 * The Architect IDE (issue 22; docs/ide.md): the daemon's own pages for its
 * operator — the board at `/`, the team at `/ide/team` — served to a
 * browser that logged in with `mesh open`. Its routes: the login (`login.ts`), the pages (`routes.ts`)
 * and the hashed static files (`assets.ts`, sources in `browser/`). Every
 * read and write the page makes goes through the daemon's existing routes
 * and its one `/events` socket.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {assetRoutes, createIdeAssets} from './assets.js'
import {loginRoutes} from './login.js'
import {pageRoutes} from './routes.js'

export function ideArea(context: DaemonContext): DaemonArea {
  const assets = createIdeAssets()
  return {
    name: 'ide',
    routes: [...loginRoutes(context, assets), ...pageRoutes(context, assets), ...assetRoutes(assets)],
  }
}
