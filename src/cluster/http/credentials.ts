/**
 * Reading credentials and single-valued query parameters off a Koa request,
 * for the relay's routes and the boards part's alike.
 */
import type {Context} from 'koa'
import {invalid} from '../../lib/errors.js'
import {bearerToken} from '../../http/bearer.js'
import {CLUSTER_TOKEN_HEADER} from '../constants.js'

/** A query parameter given at most once (a repeated one is a 400, not a silent pick); '' counts as absent. */
export function singleQuery(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name]
  if (Array.isArray(value)) throw invalid('invalid_query', `${name} is given more than once`, {field: name})
  return value === undefined || value === '' ? undefined : value
}

/** spec Authentication: header `x-cluster-token`, or `Authorization: Bearer`, or query `token`. */
export function presentedToken(ctx: Context): string | undefined {
  const header = ctx.get(CLUSTER_TOKEN_HEADER).trim()
  if (header) return header
  return bearerToken(ctx.get('authorization')) ?? singleQuery(ctx, 'token')
}
