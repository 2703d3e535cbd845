/**
 * The one JSON-over-HTTP call every mesh client makes: send, read the JSON
 * answer, and turn a failure into a MeshError that keeps the server's stable
 * code, message and field (DECISIONS error body), so the CLI shows what the
 * server said. Importing this file loads nothing heavy.
 */
import {MeshError, type ErrorKind} from '../lib/errors.js'
import {printable} from './printable.js'

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
  /** Checks a success body before the caller reads it: returns what is wrong (see answer-shape.ts), or null. */
  check?: (body: unknown) => string | null
  /** Largest body accepted (default MAX_ANSWER_BYTES). */
  maxBytes?: number
}

/**
 * The most a mesh answer can need (a full inbox page: 500 messages of 64 KB, JSON-escaped), so a
 * server streaming without end fails the call instead of filling the client's memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** The body as text, refusing (with a MeshError) one longer than `max` bytes. */
export async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return ''
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength
    // Throwing out of the loop cancels the stream.
    if (total > max) throw new MeshError('too_large', 'answer_too_large', `more than ${max} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Why a request got no answer, in words a user can act on. */
export function unreachableReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs / 1000} s`
  const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
  // fetch refuses a fixed list of ports (1, 22, 25, 6000, ...) before connecting.
  return reason === 'bad port' ? 'fetch refuses to use this port (a blocked port); run the server on another one' : reason
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
    throw new MeshError('unavailable', `${call.service}_unreachable`, `Cannot reach the ${call.service} at ${call.url.origin}: ${unreachableReason(error, call.timeoutMs)}`, {cause: error})
  }
  let text: string
  try {
    text = await readCapped(response, call.maxBytes ?? MAX_ANSWER_BYTES)
  } catch (error) {
    if (error instanceof MeshError) {
      throw new MeshError('unavailable', `${call.service}_bad_answer`, `The ${call.service} at ${call.url.origin} answered ${what} with more than ${call.maxBytes ?? MAX_ANSWER_BYTES} bytes; is that address a mesh ${call.service}?`)
    }
    // The status came but the body did not (timeout or a dropped connection mid-body).
    throw new MeshError('unavailable', `${call.service}_unreachable`, `The ${call.service} at ${call.url.origin} stopped answering ${what}: ${unreachableReason(error, call.timeoutMs)}`, {cause: error})
  }
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    if (response.ok) throw new MeshError('unavailable', `${call.service}_bad_answer`, `The ${call.service} at ${call.url.origin} answered ${what} with a body that is not JSON; is that address a mesh ${call.service}?`)
  }
  if (!response.ok) throw errorFromResponse(response, body, what, call.service)
  const problem = call.check?.(body)
  if (problem) {
    throw new MeshError('unavailable', `${call.service}_bad_answer`, `The ${call.service} at ${call.url.origin} answered ${what} with an unexpected body (${problem}); is that address a mesh ${call.service} of this version?`)
  }
  return body as T
}

const SERVER_CODE = /^[A-Za-z0-9_.-]{1,64}$/
const MAX_SERVER_MESSAGE = 500
const oneLine = (text: string) => {
  const line = printable(text).replace(/\s+/g, ' ').trim()
  return line.length > MAX_SERVER_MESSAGE ? `${line.slice(0, MAX_SERVER_MESSAGE - 1)}…` : line
}

/** A server's error answer as a MeshError with its code, message, field, status and Retry-After. */
export function errorFromResponse(response: Response, body: unknown, what: string, service: string): MeshError {
  const error = (body as {error?: {code?: unknown; message?: unknown; field?: unknown}} | undefined)?.error
  const status = response.status
  const details: Record<string, unknown> = {status}
  const retryAfter = Number(response.headers.get('retry-after'))
  if (Number.isFinite(retryAfter) && retryAfter > 0) details.retry_after = retryAfter
  // The server's words reach a terminal: one line, no control characters, a code that looks like one.
  const code = typeof error?.code === 'string' && SERVER_CODE.test(error.code) ? error.code : `http_${status}`
  const message = typeof error?.message === 'string' && error.message.trim() ? oneLine(error.message) : `The ${service} answered ${status} to ${what}`
  return new MeshError(KIND_OF_STATUS[status] ?? (status >= 500 ? 'unavailable' : 'invalid'), code, message, {
    field: typeof error?.field === 'string' ? oneLine(error.field) : undefined,
    details,
  })
}

/**
 * A server URL from a flag, else an environment variable, else the default;
 * checked to parse and to be http(s) (or ws(s) when `websocket`). Trailing slashes dropped.
 */
export function resolveServerUrl(options: {flag?: string; flagName: string; env: string; fallback: string; websocket?: boolean}, env: NodeJS.ProcessEnv = process.env): string {
  // An empty value (MESH_REGISTRY= in a script, or oclif passing that env var on as the flag) means "not set".
  const raw = [options.flag, env[options.env], options.fallback].map((value) => (typeof value === 'string' ? value.trim() : '')).find((value) => value) ?? options.fallback
  const code = `usage_${options.flagName.replace(/^--/, '').replace(/-/g, '_')}_url`
  // A password in the URL never reaches an error message.
  const shown = raw.replace(/\/\/[^/@]*@/, '//***@')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new MeshError('invalid', code, `${options.flagName} must be a URL such as ${options.fallback}, got "${shown}"`)
  }
  const protocols = options.websocket ? ['http:', 'https:', 'ws:', 'wss:'] : ['http:', 'https:']
  if (!protocols.includes(url.protocol)) {
    throw new MeshError('invalid', code, `${options.flagName} must be an http(s)${options.websocket ? ' or ws(s)' : ''} URL, got "${shown}"`)
  }
  return url.toString().replace(/\/+$/, '')
}
