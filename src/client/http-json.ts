/**
 * The one JSON-over-HTTP call every mesh client makes: send, read the JSON
 * answer, and turn a failure into a MeshError that keeps the server's stable
 * code, message and field (DECISIONS error body), so the CLI shows what the
 * server said. Importing this file loads nothing heavy.
 */
import {MeshError, type ErrorKind} from '../lib/errors.js'

/** The HTTP status → error kind table of mesh clients (the inverse of src/http/error-middleware.ts). */
export const KIND_OF_STATUS: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'invalid',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
  503: 'unavailable',
}

export interface JsonCall {
  method: string
  url: URL
  /** Already serialised; signed requests need the exact bytes. */
  body?: string
  headers?: Record<string, string>
  timeoutMs: number
  fetch?: typeof fetch
  /** Who answers, for messages and codes: "registry" → `registry_unreachable`, `registry_bad_answer`. */
  service: string
}

/** Sends the call and returns the parsed JSON body (undefined for an empty one). */
export async function callJson<T>(call: JsonCall): Promise<T> {
  const what = `${call.method} ${call.url.pathname}`
  const headers: Record<string, string> = {accept: 'application/json', ...call.headers}
  if (call.body !== undefined) headers['content-type'] ??= 'application/json'
  let response: Response
  try {
    response = await (call.fetch ?? globalThis.fetch)(call.url, {
      method: call.method,
      headers,
      body: call.body,
      signal: AbortSignal.timeout(call.timeoutMs),
    })
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
    throw new MeshError('unavailable', `${call.service}_unreachable`, `Cannot reach the ${call.service} at ${call.url.origin}: ${reason}`, {cause: error})
  }
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    if (response.ok) throw new MeshError('unavailable', `${call.service}_bad_answer`, `The ${call.service} answered ${what} with a body that is not JSON`)
  }
  if (!response.ok) throw errorFromResponse(response, body, what, call.service)
  return body as T
}

/** A server's error answer as a MeshError with its code, message, field, status and Retry-After. */
export function errorFromResponse(response: Response, body: unknown, what: string, service: string): MeshError {
  const error = (body as {error?: {code?: unknown; message?: unknown; field?: unknown}} | undefined)?.error
  const status = response.status
  const details: Record<string, unknown> = {status}
  const retryAfter = Number(response.headers.get('retry-after'))
  if (Number.isFinite(retryAfter) && retryAfter > 0) details.retry_after = retryAfter
  return new MeshError(
    KIND_OF_STATUS[status] ?? (status >= 500 ? 'unavailable' : 'invalid'),
    typeof error?.code === 'string' ? error.code : `http_${status}`,
    typeof error?.message === 'string' ? error.message : `The ${service} answered ${status} to ${what}`,
    {field: typeof error?.field === 'string' ? error.field : undefined, details},
  )
}

/**
 * A server URL from a flag, else an environment variable, else the default;
 * checked to parse and to be http(s) (or ws(s) when `websocket`). Trailing slashes dropped.
 */
export function resolveServerUrl(options: {flag?: string; flagName: string; env: string; fallback: string; websocket?: boolean}, env: NodeJS.ProcessEnv = process.env): string {
  const raw = (options.flag ?? env[options.env] ?? options.fallback).trim()
  const code = `usage_${options.flagName.replace(/^--/, '').replace(/-/g, '_')}_url`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new MeshError('invalid', code, `${options.flagName} must be a URL such as ${options.fallback}, got "${raw}"`)
  }
  const protocols = options.websocket ? ['http:', 'https:', 'ws:', 'wss:'] : ['http:', 'https:']
  if (!protocols.includes(url.protocol)) {
    throw new MeshError('invalid', code, `${options.flagName} must be an http(s)${options.websocket ? ' or ws(s)' : ''} URL, got "${raw}"`)
  }
  return url.toString().replace(/\/+$/, '')
}
