/** Calls to a running daemon from commands: /health without credentials, other routes with the portal token. */
import {callJson} from '../http-json.js'

/** The daemon's /health, or null when nothing answers within a second. */
export async function fetchHealth(url: string): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(`${url}/health`, {signal: AbortSignal.timeout(1000)})
    if (!response.ok) return null
    return (await response.json()) as Record<string, unknown>
  } catch {
    return null
  }
}

export interface DaemonCallOptions {
  url: string
  token: string
  method: string
  path: string
  body?: unknown
}

/** A JSON call with the portal token; daemon errors come back as MeshErrors with the daemon's code. */
export function callDaemon<T>(options: DaemonCallOptions): Promise<T> {
  return callJson<T>({
    method: options.method,
    url: new URL(options.path, options.url),
    headers: {authorization: `Bearer ${options.token}`},
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    timeoutMs: 15_000,
    service: 'daemon',
  })
}
