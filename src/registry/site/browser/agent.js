// The agent page's small script: a copy button on every command (added
// here, so without script there is no dead button and the commands stay
// selectable text), and the live state: the page listens to
// /network/events (event `agent`, data {id, online, last_seen, …}) and
// flips this agent's state without a reload.
'use strict'

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
  // http:// pages (a registry on a LAN) have no async clipboard: select and copy.
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'visually-hidden'
  document.body.append(area)
  area.select()
  const ok = document.execCommand('copy')
  area.remove()
  return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'))
}

function addCopyButtons() {
  for (const block of document.querySelectorAll('.command')) {
    const code = block.querySelector('pre.cmd code')
    if (!code || block.querySelector('button.copy')) continue
    const label = block.querySelector('.command-label')
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'copy'
    // The visible word starts the accessible name ("Copy the curl command"), as WCAG 2.5.3 asks.
    const word = document.createElement('span')
    word.textContent = 'Copy'
    word.setAttribute('aria-live', 'polite')
    const what = document.createElement('span')
    what.className = 'visually-hidden'
    what.textContent = ` the ${label ? label.textContent : ''} command`
    button.append(word, what)
    button.addEventListener('click', () => {
      copyText(code.textContent).then(
        () => {
          word.textContent = 'Copied'
          button.dataset.copied = 'true'
          setTimeout(() => {
            word.textContent = 'Copy'
            delete button.dataset.copied
          }, 2000)
        },
        () => {
          word.textContent = 'Select and copy'
        },
      )
    })
    block.append(button)
  }
}

// The server's clock when it rendered the page (data-now-ms) against this browser's: "last seen"
// is measured on the registry's clock, so a browser whose clock is off still says "just now".
let clockSkewMs = 0

function timeAgo(iso) {
  const then = Date.parse(iso)
  if (!Number.isFinite(then)) return iso
  const seconds = Math.max(0, Math.round((Date.now() + clockSkewMs - then) / 1000))
  for (const [size, name] of [[86400, 'day'], [3600, 'hour'], [60, 'minute']]) {
    const n = Math.floor(seconds / size)
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`
  }
  return 'just now'
}

// The same markup as onlineState() in src/registry/site/components.ts, built with DOM calls (no HTML strings).
function renderState(target, online, lastSeen) {
  const state = document.createElement('span')
  state.className = `state ${online ? 'online' : 'offline'}`
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
  target.replaceChildren(state)
}

function followState() {
  const page = document.querySelector('.agent-page[data-agent-id]')
  const target = document.querySelector('[data-agent-state]')
  if (!page || !target || typeof EventSource !== 'function') return
  const id = page.dataset.agentId
  const serverNow = Number(page.dataset.nowMs)
  if (Number.isFinite(serverNow)) clockSkewMs = serverNow - Date.now()
  const events = new EventSource('/network/events')
  events.addEventListener('agent', (event) => {
    let data
    try {
      data = JSON.parse(event.data)
    } catch {
      return
    }
    if (!data || data.id !== id || typeof data.online !== 'boolean') return
    const current = target.querySelector('.state')
    const lastSeen = typeof data.last_seen === 'string' ? data.last_seen : null
    if (current && current.dataset.online === String(data.online) && data.online) return
    renderState(target, data.online, lastSeen)
    page.classList.toggle('is-online', data.online)
    page.classList.toggle('is-offline', !data.online)
  })
  // A page left open keeps one stream; the browser reconnects it after the server's retry delay.
  window.addEventListener('pagehide', () => events.close())
}

addCopyButtons()
followState()
