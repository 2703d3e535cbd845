/**
 * The error family of mesh. Every error a user can cause carries a stable
 * snake_case `code` and a human `message`; the transport (HTTP, WebSocket, CLI)
 * decides how to show it. Meaning lives here, wire mapping lives beside each
 * transport (see src/http/error-middleware.ts).
 */
export type ErrorKind =
  | 'invalid' // 400: the request or file is malformed or out of bounds
  | 'unauthorized' // 401: missing or wrong credentials
  | 'payment_required' // 402
  | 'forbidden' // 403: credentials valid but not allowed
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'rate_limited' // 429
  | 'unavailable' // 503
  | 'internal' // 500

export interface MeshErrorOptions {
  /** JSON path of the offending field, for validation errors. */
  field?: string
  cause?: unknown
  /** Extra, non-secret fields to put beside code and message (e.g. retry_after). */
  details?: Record<string, unknown>
}

export class MeshError extends Error {
  readonly code: string
  readonly kind: ErrorKind
  readonly field?: string
  readonly details?: Record<string, unknown>

  constructor(kind: ErrorKind, code: string, message: string, options: MeshErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = 'MeshError'
    this.kind = kind
    this.code = code
    this.field = options.field
    this.details = options.details
  }
}

export const invalid = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('invalid', code, message, options)
export const unauthorized = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('unauthorized', code, message, options)
export const forbidden = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('forbidden', code, message, options)
export const notFound = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('not_found', code, message, options)
export const conflict = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('conflict', code, message, options)
export const tooLarge = (code: string, message: string, options?: MeshErrorOptions) =>
  new MeshError('too_large', code, message, options)

/** A rate-limit refusal; `retryAfterSeconds` becomes the Retry-After header. */
export const rateLimited = (message: string, retryAfterSeconds: number, code = 'rate_limited') =>
  new MeshError('rate_limited', code, message, {details: {retry_after: retryAfterSeconds}})

export const isMeshError = (error: unknown): error is MeshError => error instanceof MeshError
