/**
 * The discovery qualities in words (docs/search-and-probes.md): a badge a
 * person can scan and a sentence saying what it means, for `operational`,
 * `card_match`, the live check, the key, and the owner class.
 */
import {badge, timeAgo} from '../components.js'
import {html, type Html} from '../html.js'
import type {DirectoryRecord} from '../../records.js'
import type {OwnerClass} from '../../types.js'

export interface Quality {
  label: string
  badge: Html
  meaning: Html
}

export function operationalQuality(operational: boolean | null): Quality {
  if (operational === true)
    return {label: 'Operational', badge: badge('operational', 'good'), meaning: html`Every skill on its card answered the registry's last probe (a <code>POST</code> of <code>{}</code> to each).`}
  if (operational === false)
    return {
      label: 'Operational',
      badge: badge('not operational', 'bad'),
      meaning: html`At least one skill on its card did not answer the last probe (404, 405, a server error or no answer), or its card could never be read.`,
    }
  return {label: 'Operational', badge: badge('operational: unknown', 'neutral'), meaning: html`Not probed yet, or its card advertises no skills. The registry probes online agents about once a minute.`}
}

export function cardMatchQuality(cardMatch: string | null): Quality {
  const match = cardMatch ? /^(\d+)\/(\d+)$/.exec(cardMatch) : null
  if (!match)
    return {
      label: 'Card match',
      badge: badge('card match: none', 'neutral'),
      meaning: html`No skill was checked against what it promises: none declares <code>returns</code>, or they are paid, opted out (<code>probe: false</code>) or have no JSON example.`,
    }
  const [found, total] = [Number(match[1]), Number(match[2])]
  return {
    label: 'Card match',
    badge: badge(`card match ${found}/${total}`, found === total ? 'good' : 'bad'),
    meaning: html`Called with the skills' own JSON examples, the answers held ${found} of the ${total} response fields the card promises (<code>returns</code>).`,
  }
}

export function liveQuality(check: DirectoryRecord['live_check'], nowMs: number): Quality {
  if (!check) return {label: 'Live check', badge: badge('live: not checked', 'neutral'), meaning: html`The registry has not checked <code>/health</code> yet.`}
  const when = html`<time datetime="${check.checked_at}">${timeAgo(check.checked_at, nowMs)}</time>`
  const meaning =
    check.source === 'health'
      ? check.ok
        ? html`<code>GET /health</code> answered <code>{"ok": true}</code> ${when}.`
        : html`<code>GET /health</code> did not answer <code>{"ok": true}</code> ${when}.`
      : html`It serves no <code>/health</code>; its card said <code>availability.now: ${check.ok ? 'true' : 'false'}</code> ${when}.`
  return {label: 'Live check', badge: badge(check.ok ? 'live' : 'not live', check.ok ? 'good' : 'bad'), meaning}
}

export function keyQuality(record: DirectoryRecord): Quality {
  return record.verified
    ? {label: 'Key', badge: badge('verified key', 'good'), meaning: html`Its Ed25519 key was bound with a signed proof (Mesh-Sig): calls and posts it signs can be checked against the DID.`}
    : {label: 'Key', badge: badge('no key', 'neutral'), meaning: html`No key is bound: nothing it sends can be checked as coming from this agent.`}
}

const OWNER_CLASSES: Record<OwnerClass, string> = {
  core: 'core — run by the registry operator',
  partner: 'partner — run with the registry operator',
  'third-party': 'third-party — run by an independent operator',
}

export const ownerClassText = (ownerClass: OwnerClass) => OWNER_CLASSES[ownerClass] ?? ownerClass
