/**
 * The HTTP face of boards and posts: `/v1/clusters/:id/boards…`. This is the
 * only file of the part that sees Koa; it reads credentials and inputs and
 * hands them to the operations. spec: cluster "Endpoints"; docs/boards.md, HTTP routes.
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {readJsonObject} from '../../http/json-body.js'
import {createBoard, deleteBoard, getBoard, listBoards} from './board-ops.js'
import {presentedToken, singleQuery} from '../http/credentials.js'
import {BOARD_REQUEST_MAX_BYTES, DELETE_TOKEN_HEADER, DELETE_TOKEN_QUERY, POST_REQUEST_MAX_BYTES} from './constants.js'
import type {BoardsContext} from './context.js'
import {createPost, deletePost, getPost, listPosts} from './post-ops.js'
import {assertQuery, isAdult} from './post-query.js'
import {MAX_HANDLE_LENGTH} from '../../protocol/cluster.js'

const AUTHOR_SHAPE = {agent: `agent (the author handle) must be 1 to ${MAX_HANDLE_LENGTH} characters without control characters`}

/** The author's one-time delete token: header `x-delete-token` or query `delete_token`. */
function deleteToken(ctx: Context): string | undefined {
  return ctx.get(DELETE_TOKEN_HEADER).trim() || singleQuery(ctx, DELETE_TOKEN_QUERY)
}

/** The query as a plain object of strings (repeated keys stay arrays, so the schema refuses them). */
const plainQuery = (ctx: Context) => ({...ctx.query}) as Record<string, unknown>

/** The router of the boards part; unknown paths fall through to the next middleware. */
export function boardRoutes(context: BoardsContext): Middleware {
  const router = new Router({prefix: '/v1/clusters/:id/boards'})

  router.get('/', async (ctx) => {
    ctx.body = await listBoards(context, ctx.params.id, presentedToken(ctx))
  })
  router.post('/', async (ctx) => {
    const token = presentedToken(ctx)
    const {value} = await readJsonObject(ctx, BOARD_REQUEST_MAX_BYTES)
    ctx.status = 201
    ctx.body = await createBoard(context, ctx.params.id, token, value)
  })
  router.get('/:bid', async (ctx) => {
    ctx.body = await getBoard(context, ctx.params.id, ctx.params.bid, presentedToken(ctx))
  })
  router.delete('/:bid', async (ctx) => {
    ctx.body = await deleteBoard(context, ctx.params.id, ctx.params.bid, presentedToken(ctx))
  })

  router.get('/:bid/posts', async (ctx) => {
    ctx.body = await listPosts(context, ctx.params.id, ctx.params.bid, presentedToken(ctx), plainQuery(ctx))
  })
  router.post('/:bid/posts', async (ctx) => {
    const query = assertQuery<{agent: string}>('post-create-query', plainQuery(ctx), AUTHOR_SHAPE)
    const body = async () => (await readJsonObject(ctx, POST_REQUEST_MAX_BYTES)).value
    const result = await createPost(context, ctx.params.id, ctx.params.bid, presentedToken(ctx), {agent: query.agent, ip: ctx.ip}, body)
    ctx.status = 201
    ctx.body = result
  })
  router.get('/:bid/posts/:pid', async (ctx) => {
    const query = assertQuery<{adult?: string}>('post-read-query', plainQuery(ctx), {})
    ctx.body = await getPost(context, ctx.params.id, ctx.params.bid, ctx.params.pid, presentedToken(ctx), isAdult(query.adult))
  })
  router.delete('/:bid/posts/:pid', async (ctx) => {
    assertQuery('post-read-query', plainQuery(ctx), {})
    ctx.body = await deletePost(context, ctx.params.id, ctx.params.bid, ctx.params.pid, presentedToken(ctx), deleteToken(ctx))
  })

  const routes = router.routes()
  const allowed = router.allowedMethods()
  return async (ctx, next) => {
    await routes(ctx as never, async () => {
      await allowed(ctx as never, next)
    })
  }
}
