import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import type {PublicClusterSummary, PublicClusterView} from '../../../src/cluster/public-view.js'
import type {EventStream, EventStreamHub} from '../../../src/http/sse.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createCatalogFeed} from '../../../src/registry/site/clusters/live.js'

const summary = (id: string, online = 0): PublicClusterSummary => ({id, name: id, slug: id, topic: null, description: null, online, where: null, created_at: '2026-01-01T00:00:00.000Z'})

/** A catalog the test edits, counting its reads. */
function fakeView() {
  const state = {clusters: [] as PublicClusterSummary[], reads: 0}
  const view: PublicClusterView = {
    async catalog({limit, offset}) {
      state.reads += 1
      return {clusters: state.clusters.slice(offset, offset + limit), count: state.clusters.length}
    },
    cluster: async () => null,
  }
  return {state, view}
}

/** A hub that records broadcasts; `size` is set by the test. */
function fakeHub() {
  const sent: Array<[string, unknown]> = []
  const hub: Pick<EventStreamHub, 'broadcast' | 'size'> & {open_: number} = {
    open_: 1,
    broadcast: (event, data) => void sent.push([event, data]),
    get size() {
      return this.open_
    },
  }
  return {hub, sent}
}

const stream = () => {
  const got: Array<[string, unknown]> = []
  const s: EventStream = {send: (event, data) => (got.push([event, data]), true), closed: false, close: () => undefined}
  return {s, got}
}

describe('the catalog feed', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads once per poll for all streams, broadcasts additions, count changes and removals, and stops when no stream is open', async () => {
    const {state, view} = fakeView()
    const {hub, sent} = fakeHub()
    state.clusters = [summary('a', 1), summary('b')]
    const feed = createCatalogFeed({view, hub, pollMs: 1000, logger: silentLogger, project: () => [10, 20]})
    const first = stream()
    feed.opened(first.s)
    await vi.advanceTimersByTimeAsync(0)
    expect(first.got).toEqual([['ready', {count: 2}]])
    const second = stream()
    feed.opened(second.s)
    await vi.advanceTimersByTimeAsync(0)
    expect(second.got).toEqual([['ready', {count: 2}]])
    expect(state.reads).toBe(1)

    state.clusters = [{...summary('c'), where: {lat: 1, lon: 2}}, summary('a', 3)]
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([
      ['cluster.added', expect.objectContaining({id: 'c', href: '/clusters/c', point: [10, 20]})],
      ['cluster.online', {id: 'a', online: 3}],
      ['cluster.removed', {id: 'b'}],
    ])
    expect(state.reads).toBe(2)

    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toHaveLength(3)
    expect(state.reads).toBe(3)

    hub.open_ = 0
    await vi.advanceTimersByTimeAsync(5000)
    expect(state.reads).toBe(3)
    feed.close()
  })

  it('reads a catalog larger than one batch whole', async () => {
    const {state, view} = fakeView()
    const {hub} = fakeHub()
    state.clusters = Array.from({length: 450}, (_, i) => summary(`c${i}`))
    const feed = createCatalogFeed({view, hub, pollMs: 1000, logger: silentLogger})
    const one = stream()
    feed.opened(one.s)
    await vi.advanceTimersByTimeAsync(0)
    expect(one.got).toEqual([['ready', {count: 450}]])
    expect(state.reads).toBe(3)
    feed.close()
  })
})
