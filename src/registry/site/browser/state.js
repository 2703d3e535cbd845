// The online state as the pages show it — the same markup as onlineState() in
// src/registry/site/components.ts, built with DOM calls (no HTML strings) —
// and "last seen" counted on the registry's clock: the server writes the time
// it rendered the page (data-now-ms), so a browser whose clock is off still
// says "just now". Loaded before each page's own script (defer keeps order).
'use strict'
;(() => {
  const rendered = Number(document.querySelector('[data-now-ms]')?.getAttribute('data-now-ms'))
  const skewMs = Number.isFinite(rendered) && rendered > 0 ? rendered - Date.now() : 0

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

  globalThis.meshSite = Object.freeze({timeAgo, stateElement})
})()
