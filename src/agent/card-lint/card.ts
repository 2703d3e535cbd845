/** The card-level rules: url and description (spec PublicCard, DiscoveryCard, Limits). */
import {quote, type Findings} from './collector.js'
import {LOOPBACK_HOSTS, MAX_DESCRIPTION_CHARS} from './constants.js'

const isLoopback = (hostname: string) => (LOOPBACK_HOSTS as readonly string[]).includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname)

export function checkUrl(url: unknown, out: Findings): void {
  if (typeof url !== 'string') return // card-schema
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return out.add('card-url-https', '/url', `${quote(url)} is not a URL`)
  }
  if (parsed.protocol === 'https:') return
  if (parsed.protocol === 'http:' && isLoopback(parsed.hostname))
    return out.add('card-url-localhost', '/url', `${quote(url)} is http on this machine: fine while developing, unreachable for callers; publish the https address`)
  out.add('card-url-https', '/url', `${quote(url)} is not https; callers and the registry reach agents over https`)
}

export function checkCardDescription(description: unknown, out: Findings): void {
  if (typeof description !== 'string') return
  // Characters as people (and ajv's maxLength) count them: code points, not UTF-16 units.
  const length = [...description].length
  if (length > MAX_DESCRIPTION_CHARS)
    out.add('card-description-length', '/description', `${length} characters; at most ${MAX_DESCRIPTION_CHARS} (the registry refuses a longer DiscoveryCard description, and agent serve derives it from this one)`)
}
