// What every IDE view's script shares, loaded first (defer keeps order); docs/ide.md.
// - parse(): JSON with bidi controls dropped from every string, as the server drops them
//   from what it renders (src/http/html.ts), so text reads the same either way;
// - el(): DOM building where every string is a text node, never markup;
// - call(): the daemon's routes with the session cookie and the CSRF token (X-Mesh-CSRF);
//   the portal token is never in the page;
// - events(): the page's one /events socket, reconnecting with backoff; after a gap the
//   view re-reads its state (onOpen(true)); a session the daemon no longer knows (it was
//   restarted) ends the page's live updates with a notice instead of retrying for ever;
// - notify() / announce(): a visible alert, and a polite line for screen readers;
// - coalesced(): a re-read run one at a time, once more when asked during it.
'use strict'
;(() => {
  const csrf = document.querySelector('meta[name="mesh-csrf"]')?.getAttribute('content') ?? ''

  // The same set as BIDI_CONTROLS in src/http/html.ts.
  const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g
  const clean = (value) => (typeof value === 'string' ? value.replace(BIDI_CONTROLS, '') : value)
  const parse = (text) => JSON.parse(text, (_key, value) => clean(value))

  /** An element with attributes (`class`, `data-*`, `aria-*`…; false/null/undefined left out) and children (nodes, or strings as text). */
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue
      node.setAttribute(name, value === true ? '' : String(value))
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue
      node.append(typeof child === 'string' || typeof child === 'number' ? clean(String(child)) : child)
    }
    return node
  }

  class CallError extends Error {
    constructor(status, code, message) {
      super(message)
      this.status = status
      this.code = code
    }
  }

  /** A JSON call to the daemon; its error body becomes a CallError with the daemon's code and message. */
  async function call(method, path, body) {
    const headers = {Accept: 'application/json', 'X-Mesh-CSRF': csrf}
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response
    try {
      response = await fetch(path, {method, headers, credentials: 'same-origin', cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body)})
    } catch {
      throw new CallError(0, 'daemon_unreachable', 'The daemon does not answer: is `mesh serve` still running?')
    }
    const text = await response.text()
    let data = null
    try {
      data = text ? parse(text) : null
    } catch {
      data = null
    }
    if (!response.ok) {
      const error = data && data.error ? data.error : {code: `http_${response.status}`, message: `The daemon answered ${response.status}`}
      if (error.code === 'session_expired') sessionEnded()
      throw new CallError(response.status, error.code, error.message)
    }
    return data
  }

  const notice = () => document.getElementById('notice')

  /** Shows a message in the page's alert region (read out at once by screen readers); `null` clears it. */
  function notify(message, kind = 'error') {
    const region = notice()
    if (!region) return
    region.replaceChildren()
    region.dataset.kind = kind
    if (message) region.append(el('p', {}, message))
  }

  /** A polite line for screen readers (a move done, a card arrived). */
  function announce(message) {
    const region = document.getElementById('announce')
    if (region) region.textContent = clean(message)
  }

  const live = () => document.getElementById('live')
  function liveState(state, label) {
    const region = live()
    if (!region) return
    region.dataset.state = state
    region.textContent = label
  }

  let ended = false
  function sessionEnded() {
    if (ended) return
    ended = true
    liveState('ended', 'Logged out')
    notify('This page is no longer logged in (the daemon was restarted, or you logged out). Run `mesh open` for a new login.')
    document.dispatchEvent(new CustomEvent('mesh:session-ended'))
  }

  /**
   * The page's one /events socket. onEvent(envelope) for each event; onOpen(afterGap) each
   * time it (re)connects — afterGap is true from the second time on: events may have been
   * missed, so the view re-reads its state. Backoff: 0.5 s doubling to 30 s, with jitter.
   */
  function events({onEvent, onOpen}) {
    let attempt = 0
    let opened = false
    let timer
    const url = new URL('/events', location.href)
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:'
    url.searchParams.set('csrf', csrf)
    const retry = () => {
      if (ended) return
      const delay = Math.min(30_000, 500 * 2 ** attempt) * (0.75 + Math.random() / 2)
      attempt += 1
      liveState('reconnecting', 'Reconnecting…')
      clearTimeout(timer)
      timer = setTimeout(connect, delay)
    }
    async function connect() {
      if (ended) return
      if (attempt > 0) {
        // Before another try: is the session still good? A restarted daemon answers 401 and the page stops here.
        try {
          await call('GET', '/ide/session')
        } catch (error) {
          if (error.code !== 'session_expired') retry()
          return
        }
      }
      const socket = new WebSocket(url)
      socket.addEventListener('open', () => {
        const afterGap = opened
        opened = true
        attempt = 0
        liveState('live', 'Live')
        onOpen?.(afterGap)
      })
      socket.addEventListener('message', (message) => {
        let envelope
        try {
          envelope = parse(message.data)
        } catch {
          return
        }
        onEvent(envelope)
      })
      socket.addEventListener('close', retry)
    }
    connect()
  }

  document.getElementById('logout')?.addEventListener('click', async () => {
    try {
      await call('POST', '/ide/logout')
    } catch {
      // Logged out or not, the page is done: the cookie is cleared or the daemon is gone.
    }
    location.assign('/')
  })

  /**
   * `read` run one at a time: a call while it runs asks for one more run after it (events that
   * came during a read may not be in its answer), however many calls came. Returns the run's promise.
   */
  function coalesced(read) {
    let running = null
    let again = false
    const run = () => {
      if (running) {
        again = true
        return running
      }
      running = (async () => {
        try {
          await read()
        } finally {
          running = null
          if (again) {
            again = false
            run()
          }
        }
      })()
      return running
    }
    return run
  }

  /** The view's data block (`#ide-data`), parsed once. */
  let parsed
  const data = () => (parsed ??= parse(document.getElementById('ide-data')?.textContent || 'null'))

  globalThis.meshIde = Object.freeze({csrf, parse, clean, el, call, CallError, notify, announce, events, data, coalesced})
})()
