/**
 * The catalog's live changes for `/clusters/events`. The relay has no
 * catalog event, and its store is shared by every node, so the catalog is
 * polled: one poller per node, running only while at least one stream is
 * open, re-reading the whole catalog every `pollMs` and broadcasting what
 * changed since the last read. Works across nodes because every node reads
 * the same store.
 *
 * Events (data is JSON):
 * - `ready` `{count}`: sent to each new stream once the poller has a first read;
 * - `cluster.added` a catalog item (`id, name, slug, topic, description, online, where, created_at, href`,
 *   and `point`: `[x, y]` on the catalog's map, projected on the server, or null without a `where`);
 * - `cluster.removed` `{id}`: deleted, or no longer public;
 * - `cluster.online` `{id, online}`: the online count changed.
 */
import type {PublicClusterSummary, PublicClusterView} from '../../../cluster/public-view.js'
import type {EventStream, EventStreamHub} from '../../../http/sse.js'
import type {Logger} from '../../../lib/log.js'
import {clip} from '../html.js'
import {CLUSTER_CLIP, POLL_BATCH} from './constants.js'
import {clusterHref} from './parts.js'

export interface CatalogFeed {
  /** Call when a stream opened: starts the poller if needed and sends `ready` once it has a first read. */
  opened(stream: EventStream): void
  /** One poll now (tests); resolves when its events went out. */
  pollOnce(): Promise<void>
  close(): void
}

/** What a new cluster's event carries: the catalog row, with long text clipped as the page clips it. */
export function addedEvent(cluster: PublicClusterSummary, project: Projector = () => null) {
  return {
    id: cluster.id,
    name: cluster.name === null ? null : clip(cluster.name, CLUSTER_CLIP.name),
    slug: cluster.slug,
    topic: cluster.topic === null ? null : clip(cluster.topic, CLUSTER_CLIP.topic),
    description: cluster.description === null ? null : clip(cluster.description, CLUSTER_CLIP.catalogDescription),
    online: cluster.online,
    where: cluster.where,
    created_at: cluster.created_at,
    href: clusterHref(cluster),
    point: cluster.where ? project(cluster.where.lon, cluster.where.lat) : null,
  }
}

/** Every public cluster, read in batches (newest first; a cluster seen twice across batches counts once). */
async function readAll(view: PublicClusterView): Promise<Map<string, PublicClusterSummary>> {
  const all = new Map<string, PublicClusterSummary>()
  for (let offset = 0; ; offset += POLL_BATCH) {
    const {clusters, count} = await view.catalog({limit: POLL_BATCH, offset})
    for (const cluster of clusters) all.set(cluster.id, cluster)
    if (clusters.length < POLL_BATCH || offset + POLL_BATCH >= count) return all
  }
}

/** The map's projection (map.ts WorldMap.project). */
export type Projector = (lon: number, lat: number) => [number, number] | null

export function createCatalogFeed(options: {view: PublicClusterView; hub: Pick<EventStreamHub, 'broadcast' | 'size'>; pollMs: number; logger: Logger; project?: Projector}): CatalogFeed {
  const {view, hub, pollMs, logger, project} = options
  let last: Map<string, PublicClusterSummary> | null = null
  let timer: NodeJS.Timeout | undefined
  let reading: Promise<void> | null = null
  let closed = false

  const diff = (next: Map<string, PublicClusterSummary>) => {
    if (last) {
      for (const [id, cluster] of next) {
        const before = last.get(id)
        if (!before) hub.broadcast('cluster.added', addedEvent(cluster, project))
        else if (before.online !== cluster.online) hub.broadcast('cluster.online', {id, online: cluster.online})
      }
      for (const id of last.keys()) if (!next.has(id)) hub.broadcast('cluster.removed', {id})
    }
    last = next
  }

  // One read at a time: a slow store never stacks reads.
  const poll = () => {
    reading ??= readAll(view)
      .then(diff)
      .catch((error: unknown) => logger.warn('cluster catalog poll failed', {error: String(error)}))
      .finally(() => {
        reading = null
      })
    return reading
  }

  const schedule = () => {
    if (closed || timer) return
    timer = setTimeout(() => {
      timer = undefined
      // The last stream went away: stop, and forget the read (a later stream starts from a fresh one).
      if (hub.size === 0) {
        last = null
        return
      }
      void poll().then(schedule)
    }, pollMs)
    timer.unref()
  }

  return {
    opened(stream) {
      const started = last ? Promise.resolve() : poll()
      void started.then(() => {
        if (last) stream.send('ready', {count: last.size})
        schedule()
      })
    },
    pollOnce: () => poll(),
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}
