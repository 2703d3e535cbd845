import {isUtf8} from 'node:buffer'
import type {Context} from 'koa'
import {invalid, tooLarge} from '../lib/errors.js'

export interface JsonBody<T = unknown> {
  /** The exact bytes received; signatures (Mesh-Sig, webhooks) are over these. */
  raw: Buffer
  value: T
}

const DEFAULT_LIMIT = 64 * 1024

/**
 * Collects the request body up to `limit` bytes. Read with 'data'/'end'
 * listeners rather than an async iterator, which costs about 10 µs more per
 * request; every registry heartbeat reads two bodies.
 */
function collect(ctx: Context, limit: number): Promise<Buffer> {
  const request = ctx.req
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const finish = (error: unknown, raw?: Buffer) => {
      if (settled) return
      settled = true
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
      request.off('close', onClose)
      if (error) reject(error)
      else resolve(raw!)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        // Stop reading; Node discards the rest of the body once the 413 is sent.
        finish(tooLarge('body_too_large', `Request body exceeds the limit of ${limit} bytes`))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    // A client that goes away mid-body made the mistake: a 400 (nobody reads it), not an error logged with a stack.
    const cutShort = () => finish(invalid('incomplete_body', 'The request was closed before its body ended'))
    const onError = cutShort
    const onClose = cutShort
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
    request.on('close', onClose)
  })
}

/**
 * Reads the request body as JSON with a hard size cap (413 `body_too_large`;
 * 400 `invalid_json`, also for bytes that are not UTF-8). The raw bytes are kept because signed requests hash
 * them. An empty body reads as `undefined`. Memoised on ctx.state so
 * middleware and handler can both read it.
 */
export async function readJsonBody<T = unknown>(ctx: Context, limit = DEFAULT_LIMIT): Promise<JsonBody<T>> {
  if (ctx.state.jsonBody) return ctx.state.jsonBody as JsonBody<T>
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > limit) throw tooLarge('body_too_large', `Request body is ${declared} bytes; the limit is ${limit}`)
  const raw = ctx.req.readableEnded ? Buffer.alloc(0) : await collect(ctx, limit)
  let value: unknown
  if (raw.length > 0) {
    // toString would turn invalid bytes into U+FFFD and store text the client never sent.
    if (!isUtf8(raw)) throw invalid('invalid_json', 'Request body is not valid UTF-8 (JSON text must be UTF-8)')
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

/** Reads a JSON body that must be an object (the shape of every mesh request): 400 `invalid_body` otherwise. */
export async function readJsonObject<T extends object = Record<string, unknown>>(ctx: Context, limit?: number): Promise<JsonBody<T>> {
  const body = await readJsonBody<T>(ctx, limit)
  if (body.value === undefined) return {raw: body.raw, value: {} as T}
  if (typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    throw invalid('invalid_body', 'Request body must be a JSON object')
  }
  return body
}
