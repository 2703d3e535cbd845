/** Small pieces several pages show the same way: online state, badges, times. */
import {html, type Html} from './html.js'

/**
 * Online with a pulsing dot; offline dimmed with no pulse and when it was
 * last seen (spec: liveness, "dimmed, no pulse"). `data-online` lets a
 * page's script flip it live.
 */
export function onlineState(online: boolean, lastSeen: string | null, nowMs: number): Html {
  return online
    ? html`<span class="state online" data-online="true"><span class="dot" aria-hidden="true"></span>online</span>`
    : html`<span class="state offline" data-online="false"><span class="dot" aria-hidden="true"></span>offline${lastSeen ? html` · last seen <time datetime="${lastSeen}">${timeAgo(lastSeen, nowMs)}</time>` : ' · never seen'}</span>`
}

/** A labelled badge; `kind` picks its colour (good, bad, neutral). */
export function badge(text: string, kind: 'good' | 'bad' | 'neutral', title?: string): Html {
  return html`<span class="badge ${kind}"${title ? html` title="${title}"` : ''}>${text}</span>`
}

/** "3 minutes ago", "2 days ago": coarse, for people; the exact time is in the element's datetime. */
export function timeAgo(iso: string, nowMs: number): string {
  const then = Date.parse(iso)
  if (!Number.isFinite(then)) return iso
  const seconds = Math.max(0, Math.round((nowMs - then) / 1000))
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ]
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size)
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`
  }
  return 'just now'
}
