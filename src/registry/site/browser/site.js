// What every page's script shares, loaded first on every page (defer keeps order):
// - parse(): JSON from the registry's streams and APIs with bidi controls dropped from
//   every string, as the server drops them from what it renders (site/html.ts escapeText),
//   so text a card wrote reads the same whether it came with the page or arrived live;
// - the online state as the pages show it — the same markup as onlineState() in
//   src/registry/site/components.ts, built with DOM calls (no HTML strings) — and "last
//   seen" counted on the registry's clock: the server writes the time it rendered the
//   page (data-now-ms), so a browser whose clock is off still says "just now".
'use strict'
;(() => {
  const rendered = Number(document.querySelector('[data-now-ms]')?.getAttribute('data-now-ms'))
  const skewMs = Number.isFinite(rendered) && rendered > 0 ? rendered - Date.now() : 0

  // The same set as BIDI_CONTROLS in src/registry/site/html.ts.
  const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g
  const parse = (text) => JSON.parse(text, (_key, value) => (typeof value === 'string' ? value.replace(BIDI_CONTROLS, '') : value))

  function timeAgo(iso) {
    const then = Date.parse(iso)
    if (!Number.isFinite(then)) return iso
    const seconds = Math.max(0, Math.round((Date.now() + skewMs - then) / 1000))
    for (const [size, unit] of [[86400, 'day'], [3600, 'hour'], [60, 'minute']]) {
      const n = Math.floor(seconds / size)
      if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`
    }
    return 'just now'
  }

  function stateElement(online, lastSeen) {
    const state = document.createElement('span')
    state.className = online ? 'state online' : 'state offline'
    state.dataset.online = String(online)
    const dot = document.createElement('span')
    dot.className = 'dot'
    dot.setAttribute('aria-hidden', 'true')
    state.append(dot, online ? 'online' : 'offline')
    if (!online) {
      if (lastSeen) {
        const time = document.createElement('time')
        time.dateTime = lastSeen
        time.textContent = timeAgo(lastSeen)
        state.append(' · last seen ', time)
      } else state.append(' · never seen')
    }
    return state
  }

  globalThis.meshSite = Object.freeze({parse, timeAgo, stateElement})
})()
