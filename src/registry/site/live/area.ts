/**
 * The site's live stream (`/site/events`): every page's script subscribes to
 * its area's topic through one connection per browser instead of opening its
 * own (a browser opens at most six HTTP/1.1 connections to a host, so a
 * seventh tab of the site never loaded). The areas keep their own streams
 * (`/network/events`, `/clusters/events`) for other clients. docs/site.md.
 */
import type {SiteArea, SiteDeps} from '../types.js'
import {liveMiddleware} from './routes.js'

export function createLiveStream(deps: SiteDeps, areas: SiteArea[]): SiteArea {
  const hub = deps.streams()
  const topics = areas.flatMap((area) => (area.live ? [area.live] : []))
  return {
    name: 'live',
    middleware: liveMiddleware({hub, topics}),
    close() {
      hub.closeAll()
    },
  }
}
