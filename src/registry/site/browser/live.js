// One live connection per browser for every tab of the site (docs/site.md, "One stream per
// browser"). A browser opens at most six HTTP/1.1 connections to a host: when each page held
// its own event stream, a seventh tab of the site never loaded. Here a page subscribes to a
// topic (`network`, `clusters`) and one relay holds the only EventSource, on /site/events:
// - a SharedWorker running this same file, where the browser has one;
// - else the tab that holds a Web Lock, passing events on over a BroadcastChannel (when it
//   closes, the next tab in the lock's queue takes over);
// - else the page itself.
// The server sends every topic's events unnamed, data {"topic", "event", "data"}; what a new
// stream is told once (the catalog's `ready`) also carries "greeting": true, and the relay
// keeps the last greeting of each topic for a tab that subscribes later (even for a topic no
// tab had asked for yet when it came).
// Messages to tabs: {kind: 'event', topic, data: <the event's JSON text>} and
// {kind: 'state', state: 'open' | 'closed'}; from tabs: {kind: 'subscribe', topic} and
// {kind: 'leave'}. On the BroadcastChannel a subscribe also says `from` (the tab's name), the
// leader's answer `to` whom, and a new leader announces itself ({kind: 'leader'}).
'use strict'
;(() => {
  const STREAM_URL = '/site/events'
  const NAME = 'mesh-site-live'
  // The browser retries a dropped stream by itself (the server's `retry:`); an answer that is
  // no stream (503 too_many_streams, a proxy's 502) ends the EventSource: open a new one later.
  const REOPEN_MS = 3000
  const MAX_REOPEN_MS = 30_000
  // A worker whose last tab left keeps the stream this long: the next page of a tab comes back.
  const IDLE_CLOSE_MS = 10_000

  const isTopic = (topic) => typeof topic === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(topic)

  /** The one EventSource and what it has seen; `send(message)` passes a message on to the tabs. */
  function createRelay(send) {
    const topics = new Set()
    const greetings = new Map()
    let source = null
    let state = 'connecting'
    let reopenMs = REOPEN_MS
    let reopenTimer = null

    const setState = (next) => {
      if (next === state) return
      state = next
      if (next !== 'connecting') send({kind: 'state', state: next})
    }
    const onMessage = (event) => {
      let message
      try {
        message = JSON.parse(event.data)
      } catch {
        return
      }
      if (!message || !isTopic(message.topic)) return
      if (message.greeting === true) greetings.set(message.topic, event.data)
      if (topics.has(message.topic)) send({kind: 'event', topic: message.topic, data: event.data})
    }
    const open = () => {
      reopenTimer = null
      source = new EventSource(STREAM_URL)
      source.addEventListener('message', onMessage)
      source.addEventListener('open', () => {
        reopenMs = REOPEN_MS
        setState('open')
      })
      source.addEventListener('error', (event) => {
        if (event.target !== source) return
        // A new stream greets anew.
        greetings.clear()
        setState('closed')
        if (source.readyState !== EventSource.CLOSED) return
        source = null
        reopenTimer = setTimeout(open, reopenMs)
        reopenMs = Math.min(reopenMs * 2, MAX_REOPEN_MS)
      })
    }
    return {
      need(topic) {
        topics.add(topic)
        if (!source && !reopenTimer) open()
      },
      /** What a tab subscribing to `topic` now is told: the stream's state and the topic's greeting. */
      welcome(topic) {
        const messages = state === 'connecting' ? [] : [{kind: 'state', state}]
        if (greetings.has(topic)) messages.push({kind: 'event', topic, data: greetings.get(topic)})
        return messages
      },
      close() {
        clearTimeout(reopenTimer)
        reopenTimer = null
        if (source) source.close()
        source = null
        state = 'connecting'
        greetings.clear()
      },
    }
  }

  // In the SharedWorker: one relay for every tab that connects.
  if (typeof SharedWorkerGlobalScope === 'function' && self instanceof SharedWorkerGlobalScope) {
    const subscribers = new Map()
    let idleTimer = null
    const relay = typeof EventSource === 'function' ? createRelay((message) => {
      for (const [port, topics] of subscribers) if (message.kind === 'state' || topics.has(message.topic)) port.postMessage(message)
    }) : null
    self.addEventListener('connect', (connected) => {
      const port = connected.ports[0]
      port.addEventListener('message', ({data}) => {
        if (data && data.kind === 'subscribe' && isTopic(data.topic)) {
          // A worker without EventSource: the tab finds another way.
          if (!relay) return port.postMessage({kind: 'unsupported'})
          clearTimeout(idleTimer)
          if (!subscribers.has(port)) subscribers.set(port, new Set())
          subscribers.get(port).add(data.topic)
          relay.need(data.topic)
          for (const message of relay.welcome(data.topic)) port.postMessage(message)
        } else if (data && data.kind === 'leave') {
          subscribers.delete(port)
          port.close()
          if (subscribers.size === 0 && relay) idleTimer = setTimeout(() => relay.close(), IDLE_CLOSE_MS)
        }
      })
      port.start()
    })
    return
  }

  if (typeof window === 'undefined' || typeof EventSource !== 'function') return

  // In a tab.
  const workerUrl = document.currentScript && document.currentScript.src
  const handlers = new Map()
  let transport = null
  const setRelay = (role) => {
    document.documentElement.dataset.liveRelay = role
  }

  const deliver = (message) => {
    if (!message) return
    if (message.kind === 'state') {
      document.documentElement.dataset.stream = message.state
      for (const set of handlers.values()) for (const handler of set) handler.state?.(message.state)
      return
    }
    const set = message.kind === 'event' && handlers.get(message.topic)
    if (!set) return
    let parsed
    try {
      parsed = globalThis.meshSite.parse(message.data)
    } catch {
      return
    }
    if (!parsed || typeof parsed.event !== 'string') return
    for (const handler of set) handler.event?.(parsed.event, parsed.data)
  }

  function viaPage() {
    setRelay('page')
    const relay = createRelay(deliver)
    return {
      subscribe(topic) {
        relay.need(topic)
        for (const message of relay.welcome(topic)) deliver(message)
      },
      leave: () => relay.close(),
    }
  }

  function viaElectedTab() {
    const channel = new BroadcastChannel(NAME)
    // Names this tab on the channel, so a welcome reaches only the tab that subscribed (not a secret).
    const me = Math.random().toString(36).slice(2)
    const mine = new Set()
    const abort = new AbortController()
    let relay = null
    let release = null
    channel.addEventListener('message', ({data}) => {
      if (!data || (data.to !== undefined && data.to !== me)) return
      if (relay) {
        // The leader: another tab subscribes.
        if (data.kind === 'subscribe' && isTopic(data.topic)) {
          relay.need(data.topic)
          for (const message of relay.welcome(data.topic)) channel.postMessage({...message, to: data.from})
        }
      } else if (data.kind === 'leader') {
        // A new leader knows no one's topics yet.
        for (const topic of mine) channel.postMessage({kind: 'subscribe', topic, from: me})
      } else deliver(data)
    })
    const lead = () =>
      new Promise((resolve) => {
        release = resolve
        setRelay('leader')
        relay = createRelay((message) => {
          channel.postMessage(message)
          deliver(message)
        })
        for (const topic of mine) relay.need(topic)
        channel.postMessage({kind: 'leader'})
      })
    setRelay('follower')
    navigator.locks.request(NAME, {signal: abort.signal}, lead).catch(() => undefined)
    return {
      subscribe(topic) {
        mine.add(topic)
        if (!relay) return channel.postMessage({kind: 'subscribe', topic, from: me})
        relay.need(topic)
        for (const message of relay.welcome(topic)) deliver(message)
      },
      leave() {
        abort.abort()
        if (relay) relay.close()
        relay = null
        if (release) release()
        channel.close()
      },
    }
  }

  function viaWorker() {
    const worker = new SharedWorker(workerUrl, {name: NAME})
    const fallBack = () => {
      if (transport !== link) return
      transport = typeof BroadcastChannel === 'function' && navigator.locks ? viaElectedTab() : viaPage()
      for (const topic of handlers.keys()) transport.subscribe(topic)
    }
    const link = {
      subscribe: (topic) => worker.port.postMessage({kind: 'subscribe', topic}),
      leave() {
        worker.port.postMessage({kind: 'leave'})
        worker.port.close()
      },
    }
    // The worker did not start (its script failed to load or was refused), or cannot relay.
    worker.addEventListener('error', fallBack)
    worker.port.addEventListener('message', ({data}) => (data && data.kind === 'unsupported' ? fallBack() : deliver(data)))
    worker.port.start()
    setRelay('worker')
    return link
  }

  function connect() {
    if (typeof SharedWorker === 'function' && workerUrl) {
      try {
        return viaWorker()
      } catch {
        // A SharedWorker can be refused (an opaque origin): fall through.
      }
    }
    if (typeof BroadcastChannel === 'function' && navigator.locks) return viaElectedTab()
    return viaPage()
  }

  const start = () => {
    transport = connect()
    for (const topic of handlers.keys()) transport.subscribe(topic)
  }
  // A page leaving (or entering the back-forward cache) gives its place up; coming back, it subscribes again.
  window.addEventListener('pagehide', () => {
    if (transport) transport.leave()
    transport = null
  })
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && handlers.size && !transport) start()
  })

  globalThis.meshLive = Object.freeze({
    /**
     * Calls `handler.event(name, data)` for each event of `topic` and `handler.state('open' |
     * 'closed')` when the shared stream opens or drops.
     */
    subscribe(topic, handler) {
      if (!isTopic(topic)) throw new TypeError(`not a topic: ${topic}`)
      const known = handlers.has(topic)
      if (!known) handlers.set(topic, new Set())
      handlers.get(topic).add(handler)
      if (!transport) start()
      else if (!known) transport.subscribe(topic)
    },
  })
})()
