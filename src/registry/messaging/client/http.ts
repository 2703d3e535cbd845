/**
 * Client of the message bus's HTTP routes (the `/v1` twins of the legacy
 * inbox routes). Registry errors come back as MeshErrors with the
 * registry's stable code.
 */
import {MeshError, type ErrorKind} from '../../../lib/errors.js'
import type {InboxMessage} from '../store/store.js'
import type {WebhookStatus} from '../service.js'

const KIND_OF_STATUS: Record<number, ErrorKind> = {400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'too_large', 429: 'rate_limited', 503: 'unavailable'}
const TIMEOUT_MS = 15_000

export function createInboxClient(options: {registry: string; token: () => string; fetch?: typeof fetch}) {
  const doFetch = options.fetch ?? globalThis.fetch

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response
    try {
      response = await doFetch(options.registry + path, {
        method,
        headers: {accept: 'application/json', authorization: `Bearer ${options.token()}`, ...(body === undefined ? {} : {'content-type': 'application/json'})},
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (error) {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      throw new MeshError('unavailable', 'registry_unreachable', `Cannot reach the registry at ${options.registry}: ${reason}`, {cause: error})
    }
    const text = await response.text()
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    if (!response.ok) {
      const error = parsed?.error
      throw new MeshError(
        KIND_OF_STATUS[response.status] ?? (response.status >= 500 ? 'unavailable' : 'invalid'),
        typeof error?.code === 'string' ? error.code : `http_${response.status}`,
        typeof error?.message === 'string' ? error.message : `The registry answered ${response.status} to ${method} ${path}`,
        {field: typeof error?.field === 'string' ? error.field : undefined},
      )
    }
    return parsed as T
  }

  return {
    send: (to: string, payload: unknown) => call<{ok: true; message_id: number}>('POST', '/v1/agents/messages', {to, payload}),
    read: (limit?: number) => call<{messages: InboxMessage[]}>('GET', `/v1/agents/messages${limit ? `?limit=${limit}` : ''}`),
    ack: (ids: number[]) => call<{ok: true; acked: number}>('POST', '/v1/agents/messages/ack', {ids}),
    status: () => call<WebhookStatus>('GET', '/v1/agents/me/webhook'),
    retryDeadLetters: () => call<{ok: true; requeued: number}>('POST', '/v1/agents/me/webhook/retry'),
  }
}
