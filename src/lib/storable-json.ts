/**
 * What the stores can keep exactly. PostgreSQL refuses U+0000 in TEXT and
 * JSONB and lone UTF-16 surrogates in JSONB (a 500 after part of a request
 * was written); SQLite turns lone surrogates into U+FFFD; JSON text cannot
 * carry a number that parsed as Infinity (`1e309`), so it would come back
 * null. Such input is refused up front, naming the field, on every store alike.
 */
import {invalid} from './errors.js'

// A high surrogate not followed by a low one, or a low one not preceded by a high one; or NUL.
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const child = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key)

function refuseText(field: string) {
  return invalid('invalid_text', `${field || 'body'} contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored`, {field: field || '$'})
}

/**
 * Throws 400 `invalid_text` (a string or key holding U+0000 or a lone
 * surrogate) or `invalid_number` (a number that is not finite), with the
 * field's path. Walks with an explicit stack, so depth cannot overflow it.
 * `text: false` checks numbers only, for values kept as JSON text, which
 * escapes any string exactly (message payloads).
 */
export function assertStorableJson(value: unknown, field = '', options: {text?: boolean} = {}): void {
  const checkText = options.text ?? true
  const pending: Array<[unknown, string]> = [[value, field]]
  while (pending.length > 0) {
    const [item, path] = pending.pop()!
    if (typeof item === 'string') {
      if (checkText && UNSTORABLE_TEXT.test(item)) throw refuseText(path)
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw invalid('invalid_number', `${path || 'body'} is a number too large to store`, {field: path || '$'})
    } else if (Array.isArray(item)) {
      // Pushed last-first, so the first offending field in document order is the one named.
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], child(path, i)])
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item)
      if (checkText) for (const key of keys) if (UNSTORABLE_TEXT.test(key)) throw refuseText(child(path, key))
      for (let i = keys.length - 1; i >= 0; i--) pending.push([(item as Record<string, unknown>)[keys[i]], child(path, keys[i])])
    }
  }
}
