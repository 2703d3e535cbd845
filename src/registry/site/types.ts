/** The seams of the site: what a page area receives and what it hands back. */
import type {PublicClusterView} from '../../cluster/public-view.js'
import type {EventStream, EventStreamHub} from '../../http/sse.js'
import type {MeshService} from '../../http/service.js'
import type {SearchService} from '../search/search-service.js'
import type {RegistryContext} from '../types.js'
import type {SiteAssets} from './assets.js'
import type {StandardSite} from '../../standard/site.js'

export interface SiteOptions {
  /** The search behind `/network?q=` and the page's search box; without it the box is not shown. */
  search?: SearchService
  /** The relay's public face behind `/clusters`; without it (no relay on this node) the pages say so. */
  clusters?: PublicClusterView
  /** How often the catalog is re-read for live pages (ms, only while one is open); default 2000. */
  catalogPollMs?: number
  /** Open event streams per area at most; default MAX_EVENT_STREAMS. */
  maxStreams?: number
  /** The static files; default the shipped ones (tests may pass their own). */
  assets?: SiteAssets
  /** The standard's texts behind the `/resources` page; default the shipped ones. */
  standard?: StandardSite
}

/** What every page area is built from. */
export interface SiteDeps {
  context: RegistryContext
  assets: SiteAssets
  search?: SearchService
  clusters?: PublicClusterView
  catalogPollMs: number
  standard: StandardSite
  /** Makes an event-stream hub with the site's limits (one per live area), its events carried as `topic` on the site's one stream. */
  streams(topic?: string): EventStreamHub
}

/** An area's live events as a topic of the site's one stream per browser (`/site/events`, live/area.ts). */
export interface LiveTopic {
  hub: EventStreamHub
  /** Greets a stream that joins the topic (the catalog's `ready`). */
  hello?: (stream: EventStream) => void
}

/** One area of the site (agent pages, network, clusters): its routes and background work. */
export interface SiteArea {
  name: string
  middleware: MeshService['middleware']
  /** Its live events, when it has any. */
  live?: LiveTopic
  start?(): Promise<void> | void
  close?(): Promise<void> | void
}
