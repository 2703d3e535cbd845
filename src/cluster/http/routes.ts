/**
 * The HTTP face of the relay: `/v1/clusters` and `/v1/clusters/<id>`. Only
 * the files of src/cluster/http (and the boards part's routes) see Koa; this
 * one reads inputs and credentials and calls the operations in cluster-ops.ts.
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {readJsonObject} from '../../http/json-body.js'
import {sendError} from '../../http/error-middleware.js'
import {invalid} from '../../lib/errors.js'
import {MAX_BODY_BYTES} from '../constants.js'
import {createCluster, deleteCluster, getClusterDetail, listCatalog, patchCluster, type ClusterOpsContext} from '../cluster-ops.js'
import {presentedToken, singleQuery} from './credentials.js'

/** A non-negative integer query parameter given at most once, or undefined when absent. */
function intQuery(ctx: Context, name: string, min: number): number | undefined {
  const raw = singleQuery(ctx, name)
  if (raw === undefined) return undefined
  // Digits only: Number() would also take 1e3, 0x10 or " 5".
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min) {
    throw invalid('invalid_query', `${name} must be a whole number ≥ ${min}, in digits (at most 9)`, {field: name})
  }
  return Number(raw)
}

export function relayRoutes(c: ClusterOpsContext): Middleware {
  const router = new Router({prefix: '/v1/clusters'})

  router.post('/', async (ctx) => {
    const {value} = await readJsonObject(ctx, MAX_BODY_BYTES)
    ctx.body = await createCluster(c, value, ctx.ip)
    ctx.status = 201
  })
  router.get('/', async (ctx) => {
    ctx.body = await listCatalog(c, {limit: intQuery(ctx, 'limit', 1), offset: intQuery(ctx, 'offset', 0)})
  })
  // The socket's path without an upgrade would otherwise be a bare 404 "no route".
  router.get('/:id/ws', (ctx) => {
    ctx.set('Upgrade', 'websocket')
    sendError(ctx, 426, 'upgrade_required', 'This is the cluster WebSocket: connect with a WebSocket client (?agent=<handle>, and token=<ck_…> for a private cluster)')
  })
  router.all('/:id/ws', (ctx) => {
    ctx.set('Allow', 'GET')
    sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on the cluster WebSocket; open it with GET`)
  })
  router.get('/:id', async (ctx) => {
    ctx.body = await getClusterDetail(c, ctx.params.id, presentedToken(ctx))
  })
  router.patch('/:id', async (ctx) => {
    const token = presentedToken(ctx)
    const {value} = await readJsonObject(ctx, MAX_BODY_BYTES)
    ctx.body = await patchCluster(c, ctx.params.id, token, value)
  })
  router.delete('/:id', async (ctx) => {
    ctx.body = await deleteCluster(c, ctx.params.id, presentedToken(ctx))
  })
  return router.routes() as Middleware
}
