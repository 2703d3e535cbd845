/**
 * The HTTP face of boards and posts: `/v1/clusters/:id/boards…`. This is the
 * only file of the part that sees Koa; it reads credentials and inputs and
 * hands them to the operations. spec: cluster-service.md "Endpoints".
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {readJsonObject} from '../../http/json-body.js'
import {invalid} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import {createBoard, deleteBoard, getBoard, listBoards} from './board-ops.js'
import {CLUSTER_TOKEN_HEADER} from '../constants.js'
import {BOARD_REQUEST_MAX_BYTES, DELETE_TOKEN_HEADER, DELETE_TOKEN_QUERY, POST_REQUEST_MAX_BYTES} from './constants.js'
import type {BoardsContext} from './context.js'
import {createPost, deletePost, getPost, listPosts} from './post-ops.js'
import {isAdult} from './post-query.js'

/** A query parameter given at most once (a repeated one is a 400, not a silent pick). */
function single(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name]
  if (Array.isArray(value)) throw invalid('invalid_query', `${name} is given more than once`, {field: name})
  return value === undefined || value === '' ? undefined : value
}

/** spec Authentication: header `x-cluster-token`, `Authorization: Bearer`, or query `token`. */
function clusterToken(ctx: Context): string | undefined {
  const header = ctx.get(CLUSTER_TOKEN_HEADER).trim()
  if (header) return header
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))
  if (bearer) return bearer[1]
  return single(ctx, 'token')
}

/** The author's one-time delete token: header `x-delete-token` or query `delete_token`. */
function deleteToken(ctx: Context): string | undefined {
  return ctx.get(DELETE_TOKEN_HEADER).trim() || single(ctx, DELETE_TOKEN_QUERY)
}

/** The query as a plain object of strings (repeated keys stay arrays, so the schema refuses them). */
const plainQuery = (ctx: Context) => ({...ctx.query}) as Record<string, unknown>

/** The router of the boards part; unknown paths fall through to the next middleware. */
export function boardRoutes(context: BoardsContext): Middleware {
  const router = new Router({prefix: '/v1/clusters/:id/boards'})

  router.get('/', async (ctx) => {
    ctx.body = await listBoards(context, ctx.params.id, clusterToken(ctx))
  })
  router.post('/', async (ctx) => {
    const token = clusterToken(ctx)
    const {value} = await readJsonObject(ctx, BOARD_REQUEST_MAX_BYTES)
    ctx.status = 201
    ctx.body = await createBoard(context, ctx.params.id, token, value)
  })
  router.get('/:bid', async (ctx) => {
    ctx.body = await getBoard(context, ctx.params.id, ctx.params.bid, clusterToken(ctx))
  })
  router.delete('/:bid', async (ctx) => {
    ctx.body = await deleteBoard(context, ctx.params.id, ctx.params.bid, clusterToken(ctx))
  })

  router.get('/:bid/posts', async (ctx) => {
    ctx.body = await listPosts(context, ctx.params.id, ctx.params.bid, clusterToken(ctx), plainQuery(ctx))
  })
  router.post('/:bid/posts', async (ctx) => {
    const query = assertValid<{agent: string}>('post-create-query', plainQuery(ctx), 'invalid_query')
    const body = async () => (await readJsonObject(ctx, POST_REQUEST_MAX_BYTES)).value
    const result = await createPost(context, ctx.params.id, ctx.params.bid, clusterToken(ctx), {agent: query.agent, ip: ctx.ip}, body)
    ctx.status = 201
    ctx.body = result
  })
  router.get('/:bid/posts/:pid', async (ctx) => {
    const query = assertValid<{adult?: string}>('post-read-query', plainQuery(ctx), 'invalid_query')
    ctx.body = await getPost(context, ctx.params.id, ctx.params.bid, ctx.params.pid, clusterToken(ctx), isAdult(query.adult))
  })
  router.delete('/:bid/posts/:pid', async (ctx) => {
    assertValid('post-read-query', plainQuery(ctx), 'invalid_query')
    ctx.body = await deletePost(context, ctx.params.id, ctx.params.bid, ctx.params.pid, clusterToken(ctx), deleteToken(ctx))
  })

  const routes = router.routes()
  const allowed = router.allowedMethods()
  return async (ctx, next) => {
    await routes(ctx as never, async () => {
      await allowed(ctx as never, next)
    })
  }
}
