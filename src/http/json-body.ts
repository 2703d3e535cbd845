import type {Context} from 'koa'
import {invalid, tooLarge} from '../lib/errors.js'

export interface JsonBody<T = unknown> {
  /** The exact bytes received; signatures (Mesh-Sig, webhooks) are over these. */
  raw: Buffer
  value: T
}

const DEFAULT_LIMIT = 64 * 1024

/**
 * Reads the request body as JSON with a hard size cap. The raw bytes are kept
 * because signed requests hash them. An empty body reads as `undefined`.
 * Memoised on ctx.state so middleware and handler can both read it.
 */
export async function readJsonBody<T = unknown>(ctx: Context, limit = DEFAULT_LIMIT): Promise<JsonBody<T>> {
  if (ctx.state.jsonBody) return ctx.state.jsonBody as JsonBody<T>
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > limit) throw tooLarge('body_too_large', `Request body is ${declared} bytes; the limit is ${limit}`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw tooLarge('body_too_large', `Request body exceeds the limit of ${limit} bytes`)
    chunks.push(chunk)
  }
  const raw = Buffer.concat(chunks)
  let value: unknown
  if (raw.length > 0) {
    try {
      value = JSON.parse(raw.toString('utf8'))
    } catch (error) {
      throw invalid('invalid_json', `Request body is not valid JSON: ${(error as Error).message}`)
    }
  }
  const body = {raw, value: value as T}
  ctx.state.jsonBody = body
  return body
}

/** Reads a JSON body that must be an object (the shape of every mesh request). */
export async function readJsonObject<T extends object = Record<string, unknown>>(ctx: Context, limit?: number): Promise<JsonBody<T>> {
  const body = await readJsonBody<T>(ctx, limit)
  if (body.value === undefined) return {raw: body.raw, value: {} as T}
  if (typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    throw invalid('invalid_body', 'Request body must be a JSON object')
  }
  return body
}
