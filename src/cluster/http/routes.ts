/**
 * The HTTP face of the relay: `/v1/clusters` and `/v1/clusters/<id>`. Only
 * the files of src/cluster/http (and the boards part's routes) see Koa; this
 * one reads inputs and credentials and calls the operations in cluster-ops.ts.
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {readJsonObject} from '../../http/json-body.js'
import {invalid} from '../../lib/errors.js'
import {MAX_BODY_BYTES} from '../constants.js'
import {createCluster, deleteCluster, getClusterDetail, listCatalog, patchCluster, type ClusterOpsContext} from '../cluster-ops.js'
import {presentedToken} from './credentials.js'

/** A non-negative integer query parameter, or undefined when absent. */
function intQuery(ctx: Context, name: string, min: number): number | undefined {
  const raw = ctx.query[name]
  if (raw === undefined || raw === '') return undefined
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < min) {
    throw invalid('invalid_query', `${name} must be an integer ≥ ${min}`, {field: name})
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
