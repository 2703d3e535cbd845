import {lookup as dnsLookup} from 'node:dns/promises'
import type {IncomingHttpHeaders, IncomingMessage} from 'node:http'
import {request as httpRequest} from 'node:http'
import {request as httpsRequest} from 'node:https'
import {isIP, type LookupFunction} from 'node:net'
import {MeshError} from '../lib/errors.js'
import {classifyAddress} from './safe-fetch-address.js'

/**
 * Outbound HTTP for everything mesh fetches on someone else's say-so: agent
 * cards, health and skill probes, webhooks. A registered endpoint is an
 * attacker-chosen URL, so every hop is resolved once, every resolved address
 * is vetted, and the socket is dialled to that vetted address (no second DNS
 * answer can rebind it to 127.0.0.1 between check and connect).
 */

/** Defaults of the outbound policy; each is an option of {@link safeFetch}. */
export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 5_000,
  maxBytes: 256 * 1024,
  maxRedirects: 3,
  userAgent: 'mesh (+https://mesh.dev)',
} as const

/** Stable codes of the errors safeFetch throws. */
export type SafeFetchErrorCode = 'endpoint_forbidden' | 'timeout' | 'too_large' | 'fetch_failed'

/** One DNS answer. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has (default: node:dns lookup with `all`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export interface SafeFetchOptions {
  method?: string
  headers?: Record<string, string>
  /** Raw body; mutually exclusive with `json`. */
  body?: string | Uint8Array
  /** Serialised as the body with `content-type: application/json`. */
  json?: unknown
  /** Dial private, loopback and other non-public addresses (`--allow-private-endpoints`). */
  allowPrivate?: boolean
  /** Exact addresses exempt from the private-range rule (an operator's own hosts). */
  allowAddresses?: readonly string[]
  /** Deadline for the whole exchange, redirects included. */
  timeoutMs?: number
  /** Response body cap; the transfer is aborted beyond it. */
  maxBytes?: number
  /** Redirects followed (each re-vetted); 0 returns the 3xx itself. */
  maxRedirects?: number
  resolve?: Resolver
  signal?: AbortSignal
}

export interface SafeResponse {
  status: number
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>
  bodyText: string
  /** The body parsed as JSON when it is JSON; undefined otherwise. */
  json?: unknown
  /** The URL that produced this response, after redirects. */
  url: string
  /** The address the socket was dialled to. */
  address: string
}

const fail = (code: SafeFetchErrorCode, message: string, cause?: unknown) =>
  new MeshError(code === 'endpoint_forbidden' ? 'forbidden' : code === 'too_large' ? 'too_large' : 'unavailable', code, message, {cause})

const defaultResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, {all: true, verbatim: true})).map((entry) => ({address: entry.address, family: entry.family === 6 ? 6 : 4}))

const REDIRECTS = new Set([301, 302, 303, 307, 308])
// Credentials never follow a redirect to another origin.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

/** Parses and checks a URL: http(s) only. */
function parseTarget(raw: string | URL): URL {
  let url: URL
  try {
    url = new URL(String(raw))
  } catch {
    throw fail('endpoint_forbidden', `Not a valid URL: ${String(raw).slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail('endpoint_forbidden', `Only http and https URLs may be fetched, not ${url.protocol}`)
  }
  return url
}

/**
 * Resolves the URL's host and vets every address it has; returns the one to
 * dial. A host with any non-public address is refused as a whole: mixing a
 * public and a private answer is a rebinding trick, not a real deployment.
 */
export async function vetEndpoint(raw: string | URL, options: Pick<SafeFetchOptions, 'allowPrivate' | 'allowAddresses' | 'resolve'> = {}): Promise<ResolvedAddress> {
  const url = parseTarget(raw)
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  const literal = isIP(host)
  let addresses: ResolvedAddress[]
  if (literal) addresses = [{address: host, family: literal === 6 ? 6 : 4}]
  else {
    try {
      addresses = await (options.resolve ?? defaultResolver)(host)
    } catch (error) {
      throw fail('fetch_failed', `Cannot resolve ${host}: ${(error as Error).message}`, error)
    }
  }
  if (addresses.length === 0) throw fail('fetch_failed', `Cannot resolve ${host}: no addresses`)
  if (!options.allowPrivate) {
    for (const {address} of addresses) {
      const verdict = classifyAddress(address)
      if (verdict.class === 'public' || options.allowAddresses?.includes(address)) continue
      const via = verdict.embedded ? ` (embedding ${verdict.embedded})` : ''
      throw fail('endpoint_forbidden', `${host} resolves to ${address}${via}, a ${verdict.class.replace('_', '-')} address; the registry only calls public endpoints unless started with --allow-private-endpoints`)
    }
  }
  return addresses[0]
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

interface HopResult {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** One request to one vetted address; resolves with the whole (capped) body. */
function hop(url: URL, pinned: ResolvedAddress, method: string, headers: Record<string, string>, body: Buffer | undefined, maxBytes: number, signal: AbortSignal): Promise<HopResult> {
  // Every connection the request makes goes to the vetted address, whatever DNS says now.
  const lookup = ((_host: string, opts: {all?: boolean}, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{address: pinned.address, family: pinned.family}])
    else callback(null, pinned.address, pinned.family)
  }) as unknown as LookupFunction
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<HopResult>((resolve, reject) => {
    let settled = false
    const finish = (error: unknown, result?: HopResult) => {
      if (settled) return
      settled = true
      if (error) reject(error)
      else resolve(result!)
    }
    const request = send(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: body ? {...headers, 'content-length': String(body.length)} : headers,
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        lookup,
        agent: false,
        signal,
      },
      (response: IncomingMessage) => {
        const declared = Number(response.headers['content-length'] ?? 0)
        if (declared > maxBytes) {
          finish(fail('too_large', `Response from ${url.host} is ${declared} bytes; the limit is ${maxBytes}`))
          response.destroy()
          request.destroy()
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) {
            finish(fail('too_large', `Response from ${url.host} exceeds the limit of ${maxBytes} bytes`))
            response.destroy()
            request.destroy()
            return
          }
          chunks.push(chunk)
        })
        response.on('end', () => finish(null, {status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), body: Buffer.concat(chunks)}))
        response.on('error', (error) => finish(error))
        response.on('aborted', () => finish(new Error('response aborted')))
      },
    )
    request.on('error', (error) => finish(error))
    request.end(body)
  })
}

function parseJson(text: string): unknown {
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Fetches a URL under mesh's outbound policy: http(s) only, public addresses
 * only (unless `allowPrivate`), DNS pinned per hop, redirects followed by hand
 * (at most `maxRedirects`, each re-vetted), one deadline for the whole
 * exchange and a cap on the response size. Throws a MeshError whose code is
 * `endpoint_forbidden`, `timeout`, `too_large` or `fetch_failed`.
 */
export async function safeFetch(target: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects
  const controller = new AbortController()
  const timedOut = fail('timeout', `No complete answer from ${String(target).slice(0, 200)} within ${timeoutMs} ms`)
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs)
  const onOuterAbort = () => controller.abort(fail('fetch_failed', 'Request cancelled'))
  if (options.signal?.aborted) onOuterAbort()
  else options.signal?.addEventListener('abort', onOuterAbort, {once: true})
  // Every await below races the deadline, so a hung resolver cannot outlive it.
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {once: true}))
  aborted.catch(() => {})
  try {
    let url = parseTarget(target)
    let method = (options.method ?? (options.json !== undefined || options.body !== undefined ? 'POST' : 'GET')).toUpperCase()
    let headers: Record<string, string> = {'user-agent': SAFE_FETCH_DEFAULTS.userAgent, 'accept-encoding': 'identity'}
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
    let body: Buffer | undefined
    if (options.json !== undefined) {
      body = Buffer.from(JSON.stringify(options.json))
      headers['content-type'] ??= 'application/json'
    } else if (options.body !== undefined) body = Buffer.from(options.body)
    for (let redirects = 0; ; redirects++) {
      const pinned = await Promise.race([vetEndpoint(url, options), aborted])
      let result: HopResult
      try {
        result = await Promise.race([hop(url, pinned, method, headers, body, maxBytes, controller.signal), aborted])
      } catch (error) {
        if (error instanceof MeshError) throw error
        if (controller.signal.aborted) throw controller.signal.reason
        throw fail('fetch_failed', `Request to ${url.host} failed: ${(error as Error).message}`, error)
      }
      const location = result.headers.location
      if (REDIRECTS.has(result.status) && location && maxRedirects > 0) {
        if (redirects >= maxRedirects) throw fail('fetch_failed', `More than ${maxRedirects} redirects from ${String(target).slice(0, 200)}`)
        const next = parseTarget(new URL(location, url))
        if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name]
        // 303 always, and 301/302 after a POST by long browser custom, turn into a bodiless GET.
        if (result.status === 303 || ((result.status === 301 || result.status === 302) && method === 'POST')) {
          method = 'GET'
          body = undefined
          headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'))
        }
        url = next
        continue
      }
      const bodyText = result.body.toString('utf8')
      return {status: result.status, headers: result.headers, bodyText, json: parseJson(bodyText), url: url.href, address: pinned.address}
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onOuterAbort)
  }
}
