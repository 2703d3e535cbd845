/**
 * Client of the relay's board and post routes (docs/boards.md):
 * `/v1/clusters/:id/boards…`. Relay errors become MeshErrors that keep the
 * relay's stable code (`age_gated`, `board_not_found`, …) and field.
 */
import {relayRequest, resolveRelayUrl, type RelayRequestOptions} from './client.js'
import {REST_TIMEOUT_MS} from './constants.js'

// The wire shapes are the relay's own (type-only: nothing of the server loads).
export type {PostTtl} from '../../cluster/wire.js'
import type {BoardCreateInput, BoardList, BoardView, CreatedPost, PostCreateInput, PostList, PostView, Props} from '../../cluster/wire.js'

/** spec: props inherited cluster → board → post. */
export type BoardProps = Props
export type Board = BoardView
export type Post = PostView

export type {BoardList, CreatedPost, PostList}
export type BoardInput = BoardCreateInput
export type PostInput = PostCreateInput

export interface PostQuery {
  near?: string
  km?: number
  lang?: string
  adult?: boolean
  limit?: number
  cursor?: string
}

/** The `ck_` token (private clusters) and/or the `ak_` token (admin calls, reads too). */
export interface Credentials {
  token?: string
  adminToken?: string
}

export interface BoardsClientOptions {
  relay: string
  fetch?: typeof fetch
  timeoutMs?: number
}

const segment = (value: string) => encodeURIComponent(value)

/** REST calls for boards and posts on one relay. */
export class BoardsClient {
  readonly relay: string
  readonly fetch: typeof fetch
  readonly timeoutMs: number

  constructor(options: BoardsClientOptions) {
    this.relay = options.relay
    this.fetch = options.fetch ?? globalThis.fetch
    this.timeoutMs = options.timeoutMs ?? REST_TIMEOUT_MS
  }

  /** `GET …/boards` → `{boards, count}`. */
  listBoards(cluster: string, credentials: Credentials = {}): Promise<BoardList> {
    return this.request('GET', boardsPath(cluster), {credentials})
  }

  /** `GET …/boards/:bid` → the board with its charter and effective props. */
  async getBoard(cluster: string, board: string, credentials: Credentials = {}): Promise<Board> {
    return (await this.request<{board: Board}>('GET', `${boardsPath(cluster)}/${segment(board)}`, {credentials})).board
  }

  /** `POST …/boards` with the admin token. */
  async createBoard(cluster: string, input: BoardInput, adminToken: string): Promise<Board> {
    return (await this.request<{board: Board}>('POST', boardsPath(cluster), {body: input, credentials: {adminToken}})).board
  }

  /** `DELETE …/boards/:bid` with the admin token; the board's posts go too. */
  deleteBoard(cluster: string, board: string, adminToken: string): Promise<{ok: true; board_id: string}> {
    return this.request('DELETE', `${boardsPath(cluster)}/${segment(board)}`, {credentials: {adminToken}})
  }

  /** `GET …/posts?near&km&lang&adult&limit&cursor`. */
  listPosts(cluster: string, board: string, query: PostQuery = {}, credentials: Credentials = {}): Promise<PostList> {
    const params = new URLSearchParams()
    if (query.near !== undefined) params.set('near', query.near)
    if (query.km !== undefined) params.set('km', String(query.km))
    if (query.lang !== undefined) params.set('lang', query.lang)
    if (query.adult) params.set('adult', '1')
    if (query.limit !== undefined) params.set('limit', String(query.limit))
    if (query.cursor !== undefined) params.set('cursor', query.cursor)
    return this.request('GET', postsPath(cluster, board), {params, credentials})
  }

  /** `POST …/posts?agent=` → the post and its one-time delete token. */
  createPost(cluster: string, board: string, agent: string, input: PostInput, credentials: Credentials = {}): Promise<CreatedPost> {
    return this.request('POST', postsPath(cluster, board), {params: new URLSearchParams({agent}), body: input, credentials})
  }

  /** `GET …/posts/:pid`; `adult` asserts adulthood for gated posts. */
  async getPost(cluster: string, board: string, postId: string, options: Credentials & {adult?: boolean} = {}): Promise<Post> {
    const params = options.adult ? new URLSearchParams({adult: '1'}) : undefined
    return (await this.request<{post: Post}>('GET', `${postsPath(cluster, board)}/${segment(postId)}`, {params, credentials: options})).post
  }

  /** `DELETE …/posts/:pid` with the post's delete token (plus the `ck_` token on a private cluster) or the admin token. */
  deletePost(cluster: string, board: string, postId: string, options: Credentials & {deleteToken?: string}): Promise<{ok: true; post_id: string}> {
    const headers: Record<string, string> = options.deleteToken ? {'x-delete-token': options.deleteToken} : {}
    return this.request('DELETE', `${postsPath(cluster, board)}/${segment(postId)}`, {credentials: options, headers})
  }

  private request<T>(method: string, path: string, options: RelayRequestOptions & {credentials?: Credentials} = {}): Promise<T> {
    // The admin token also opens a private cluster, so it wins when both are given.
    const token = options.credentials?.adminToken ?? options.credentials?.token
    const headers: Record<string, string> = {...options.headers}
    if (token) headers['x-cluster-token'] = token
    return relayRequest<T>(this, method, path, {...options, headers})
  }
}

const boardsPath = (cluster: string) => `/v1/clusters/${segment(cluster)}/boards`
const postsPath = (cluster: string, board: string) => `${boardsPath(cluster)}/${segment(board)}/posts`

/** A client for the relay named by `--relay`, else `MESH_RELAY`, else the default. */
export function createBoardsClient(options: Partial<BoardsClientOptions> = {}): BoardsClient {
  return new BoardsClient({...options, relay: resolveRelayUrl(options.relay)})
}
