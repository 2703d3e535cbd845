import {isIP} from 'node:net'
import {classifyAddress} from '../../../http/safe-fetch-address.js'
import {invalid} from '../../../lib/errors.js'
import {WEBHOOK_URL_MAX_LENGTH} from '../constants.js'

const FIELD = 'webhook.url'

/**
 * Checks a webhook URL when it is set, so an obvious mistake is a 400 now
 * rather than a dead letter later: https only (http too when private
 * endpoints are allowed, i.e. development), no credentials in the URL, and no
 * literal private address. Host names are vetted again at every delivery by
 * the SSRF-safe fetch, since DNS can change.
 */
export function checkWebhookUrl(raw: unknown, allowPrivate: boolean): string {
  if (typeof raw !== 'string' || raw.length === 0) throw invalid('invalid_webhook_url', 'webhook.url must be a URL string, or null to remove the webhook', {field: FIELD})
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) throw invalid('invalid_webhook_url', `webhook.url is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`, {field: FIELD})
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw invalid('invalid_webhook_url', 'webhook.url is not a valid absolute URL', {field: FIELD})
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) throw invalid('invalid_webhook_url', `webhook.url must use ${schemes.join(' or ')}`, {field: FIELD})
  if (url.username || url.password) throw invalid('invalid_webhook_url', 'webhook.url must not carry credentials; verify the X-Mesh-Signature header instead', {field: FIELD})
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && classifyAddress(host).class !== 'public'))) {
    throw invalid('invalid_webhook_url', `webhook.url points at a non-public address (${host}); the registry only calls public endpoints`, {field: FIELD})
  }
  url.hash = ''
  return url.toString()
}
