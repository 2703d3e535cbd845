/**
 * Client of the message bus's HTTP routes (the `/v1` twins of the legacy
 * inbox routes). Registry errors come back as MeshErrors with the
 * registry's stable code.
 */
import {callJson} from '../http-json.js'
import type {InboxMessage, WebhookStatus} from '../../registry/wire.js'

const TIMEOUT_MS = 15_000

export function createInboxClient(options: {registry: string; token: () => string; fetch?: typeof fetch}) {
  const doFetch = options.fetch ?? globalThis.fetch

  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    callJson<T>({
      method,
      url: new URL(options.registry + path),
      headers: {authorization: `Bearer ${options.token()}`},
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: TIMEOUT_MS,
      fetch: options.fetch,
      service: 'registry',
    })

  return {
    send: (to: string, payload: unknown) => call<{ok: true; message_id: number}>('POST', '/v1/agents/messages', {to, payload}),
    read: (limit?: number) => call<{messages: InboxMessage[]}>('GET', `/v1/agents/messages${limit ? `?limit=${limit}` : ''}`),
    ack: (ids: number[]) => call<{ok: true; acked: number}>('POST', '/v1/agents/messages/ack', {ids}),
    status: () => call<WebhookStatus>('GET', '/v1/agents/me/webhook'),
    retryDeadLetters: () => call<{ok: true; requeued: number}>('POST', '/v1/agents/me/webhook/retry'),
  }
}
