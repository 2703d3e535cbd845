/** The links area of the daemon: the deployment links registry, `.mesh/public/links.yaml`. */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {linksRoutes} from './routes.js'

export const linksArea = (context: DaemonContext): DaemonArea => ({name: 'links', routes: linksRoutes(context)})
export {readLinks, updateLinks, withLinksLock, ensureEntry, findEntry, type LinksEntry, type LinksRegistry, type LinksUpdate} from './links-file.js'
