/**
 * A boards part over the relay's real ClusterAccess and in-memory cluster
 * store, served in-process by the shared host, with a clock tests move.
 */
import type {Server} from 'node:http'
import request from 'supertest'
import {createClusterAccess} from '../../../src/cluster/access.js'
import {createBoardsPart, type BoardsPartHandle} from '../../../src/cluster/boards/part.js'
import type {BoardLimits} from '../../../src/cluster/boards/constants.js'
import {createMemoryBoardStore, type BoardStore, type MemoryBoardStore} from '../../../src/cluster/boards/store.js'
import {createMemoryClusterStore, type ClusterStore} from '../../../src/cluster/store/store.js'
import {hashToken, newAdminToken, newClusterId, newClusterToken} from '../../../src/cluster/tokens.js'
import type {ClusterProps, ClusterVisibility} from '../../../src/cluster/types.js'
import {createHostApp} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'

export const T0 = Date.parse('2026-03-01T12:00:00.000Z')
export const HOUR = 3_600_000
export const DAY = 24 * HOUR

export interface TestCluster {
  id: string
  /** The `ck_` token. */
  token: string
  /** The `ak_` token. */
  admin: string
}

export interface World {
  part: BoardsPartHandle
  clusterStore: ClusterStore
  boardStore: BoardStore
  handler: ReturnType<ReturnType<typeof createHostApp>['callback']>
  http: () => ReturnType<typeof request>
  now: number
  advance(ms: number): void
  addCluster(options?: {visibility?: ClusterVisibility; props?: ClusterProps; persist?: boolean; name?: string}): Promise<TestCluster>
  close(): Promise<void>
}

export interface WorldOptions {
  limits?: Partial<BoardLimits>
  boardStore?: BoardStore
  clusterStore?: ClusterStore
  /** The part's in-memory store of non-persisted posts. */
  ephemeral?: MemoryBoardStore
  /** Builds the host with `proxy` so tests can vary the client IP with X-Forwarded-For. */
  proxy?: boolean
}

export function makeWorld(options: WorldOptions = {}): World {
  const clusterStore = options.clusterStore ?? createMemoryClusterStore()
  const boardStore = options.boardStore ?? createMemoryBoardStore()
  const world = {} as World
  world.now = T0
  world.advance = (ms) => {
    world.now += ms
  }
  const part = createBoardsPart({
    clusters: createClusterAccess({store: clusterStore}),
    store: boardStore,
    ephemeral: options.ephemeral,
    clock: () => world.now,
    logger: silentLogger,
    limits: {purgeIntervalMs: 0, ...options.limits},
  })
  const app = createHostApp({services: [{name: 'boards', middleware: part.middleware, close: async () => {}}], logger: silentLogger, proxy: options.proxy})
  const handler = app.callback()
  Object.assign(world, {
    part,
    clusterStore,
    boardStore,
    handler,
    http: () => request(handler as unknown as Server),
    async addCluster(o: Parameters<World['addCluster']>[0] = {}) {
      const cluster: TestCluster = {id: newClusterId(), token: newClusterToken(), admin: newAdminToken()}
      await clusterStore.createCluster({
        cluster_id: cluster.id,
        name: o.name ?? null,
        slug: o.name ?? null,
        visibility: o.visibility ?? 'private',
        topic: null,
        description: null,
        props: o.props ?? {},
        persist: o.persist ?? false,
        created_at: new Date(T0).toISOString(),
        token_hash: hashToken(cluster.token),
        admin_token_hash: hashToken(cluster.admin),
      })
      return cluster
    },
    close: () => part.close(),
  })
  return world
}

/** Creates a board through the API and returns its body. */
export async function createBoard(world: World, cluster: TestCluster, body: Record<string, unknown>) {
  const res = await world.http().post(`/v1/clusters/${cluster.id}/boards`).set('x-cluster-token', cluster.admin).send(body)
  if (res.status !== 201) throw new Error(`board create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.board as {board_id: string; slug: string}
}

/** Pins a post through the API and returns `{post, delete_token}`. */
export async function createPost(world: World, cluster: TestCluster, board: string, body: Record<string, unknown>, agent = 'ann') {
  const res = await world
    .http()
    .post(`/v1/clusters/${cluster.id}/boards/${board}/posts`)
    .query({agent})
    .set('x-cluster-token', cluster.token)
    .send({title: 'hello', body: 'text', ttl: '7d', ...body})
  if (res.status !== 201) throw new Error(`post create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as {post: {post_id: string; [key: string]: unknown}; delete_token: string}
}
