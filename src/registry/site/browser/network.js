// The /network page's graph and live updates. The page is whole without this
// script (the list is the graph's text alternative); this draws every agent on
// one canvas (no element per agent, so thousands stay smooth), follows the
// `network` topic of the site's shared stream (live.js), and runs the search
// box in place.
;(() => {
  'use strict'
  const figure = document.getElementById('network-graph')
  if (!figure) return
  const canvas = figure.querySelector('canvas')
  const tip = figure.querySelector('.graph-tip')
  const list = document.getElementById('agent-list')
  const results = document.getElementById('network-results')
  const form = document.querySelector('form.network-search')
  const ctx = canvas.getContext('2d')
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)')
  const darkScheme = matchMedia('(prefers-color-scheme: dark)')

  let graph = {width: 1000, height: 1000, groups: [], nodes: []}
  const byId = new Map()
  let highlight = null // Set of ids, or null
  let hover = null
  let pinned = null
  let colors = {}
  let scale = 1
  let cssSize = 0
  let frame = 0
  let grid = new Map()
  const CELL = 25

  // Colours from the theme's variables, so the graph follows light and dark mode.
  function readColors() {
    const style = getComputedStyle(document.documentElement)
    const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback
    colors = {
      bg: v('--bg', '#fff'), surface: v('--surface', '#f4f5f8'), border: v('--border', '#d5d8e0'), text: v('--text', '#1b1b1f'),
      muted: v('--muted', '#565663'), dim: v('--dim', '#6b6b76'), good: v('--good', '#0a7a32'), accent: v('--accent', '#5b3cc4'),
    }
  }

  function hash(text) {
    let h = 2166136261
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
    return (h >>> 0) / 4294967296
  }

  function index() {
    grid = new Map()
    for (const node of byId.values()) {
      const key = `${Math.floor(node.x / CELL)},${Math.floor(node.y / CELL)}`
      let cell = grid.get(key)
      if (!cell) grid.set(key, (cell = []))
      cell.push(node)
    }
  }

  function groupOf(node) {
    return graph.groups[node.group] || null
  }

  function load() {
    return fetch(figure.dataset.graph, {headers: {accept: 'application/json'}})
      .then((response) => {
        if (!response.ok) throw new Error(`graph.json ${response.status}`)
        return response.text().then(globalThis.meshSite.parse)
      })
      .then((data) => {
        const live = new Map()
        for (const node of byId.values()) live.set(node.id, node)
        graph = data
        byId.clear()
        for (const node of data.nodes) {
          const known = live.get(node.id)
          // An event newer than the fetch keeps its online state.
          if (known && known.seenAt > loadStartedAt) node.online = known.online
          node.phase = hash(node.id)
          byId.set(node.id, node)
        }
        index()
        updateCounts()
        figure.dataset.nodes = String(byId.size)
        figure.classList.add('ready')
        resize()
      })
      .catch((error) => {
        figure.dataset.error = String(error.message || error)
      })
  }
  let loadStartedAt = 0
  let reloadTimer = 0
  function scheduleReload() {
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => {
      loadStartedAt = performance.now()
      load()
    }, 1500)
  }

  function resize() {
    const rect = canvas.getBoundingClientRect()
    cssSize = Math.max(100, Math.round(rect.width))
    const ratio = window.devicePixelRatio || 1
    canvas.width = Math.round(cssSize * ratio)
    canvas.height = Math.round(cssSize * ratio)
    scale = cssSize / (graph.width || 1000)
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    draw(performance.now())
  }

  function label(text, x, y, size, color) {
    const shown = text.length > 28 ? `${text.slice(0, 27)}…` : text
    ctx.font = `${size}px system-ui, sans-serif`
    // A halo in the background colour keeps the text readable over dots and lines.
    ctx.lineWidth = 3
    ctx.lineJoin = 'round'
    ctx.strokeStyle = colors.bg
    ctx.strokeText(shown, x, y)
    ctx.fillStyle = color
    ctx.fillText(shown, x, y)
  }

  function draw(now) {
    ctx.clearRect(0, 0, cssSize, cssSize)
    const brands = []
    // Groups: brand circles filled, category circles outlined.
    for (const group of graph.groups) {
      const x = group.x * scale
      const y = group.y * scale
      const r = group.r * scale
      ctx.beginPath()
      ctx.arc(x, y, r, 0, Math.PI * 2)
      if (group.kind === 'brand') {
        ctx.fillStyle = colors.surface
        ctx.fill()
        ctx.strokeStyle = colors.border
        ctx.lineWidth = 1.2
        ctx.stroke()
        brands.push(group)
      } else {
        ctx.strokeStyle = colors.border
        ctx.lineWidth = 0.8
        ctx.setLineDash([3, 3])
        ctx.stroke()
        ctx.setLineDash([])
      }
    }
    const pulsing = !reduceMotion.matches
    // Agents in two batched paths (offline dimmed, online bright), rings in a few phase buckets.
    const dimmed = new Path2D()
    const bright = new Path2D()
    const BUCKETS = 6
    const rings = pulsing ? Array.from({length: BUCKETS}, () => new Path2D()) : []
    const period = 1800
    for (const node of byId.values()) {
      const x = node.x * scale
      const y = node.y * scale
      const r = Math.max(1.5, node.r * scale * 0.8)
      if (node.online) {
        bright.moveTo(x + r, y)
        bright.arc(x, y, r, 0, Math.PI * 2)
        if (pulsing) {
          const t = ((now / period + node.phase) % 1 + 1) % 1
          const bucket = Math.min(BUCKETS - 1, Math.floor(t * BUCKETS))
          const rr = r + (bucket + 1) * Math.max(1, r * 0.25)
          rings[bucket].moveTo(x + rr, y)
          rings[bucket].arc(x, y, rr, 0, Math.PI * 2)
        }
      } else {
        dimmed.moveTo(x + r, y)
        dimmed.arc(x, y, r, 0, Math.PI * 2)
      }
    }
    const faded = highlight ? 0.5 : 1
    ctx.globalAlpha = 0.45 * faded
    ctx.fillStyle = colors.dim
    ctx.fill(dimmed)
    ctx.globalAlpha = faded
    ctx.fillStyle = colors.good
    ctx.fill(bright)
    ctx.strokeStyle = colors.good
    ctx.lineWidth = 1
    rings.forEach((ring, bucket) => {
      ctx.globalAlpha = faded * 0.6 * (1 - (bucket + 0.5) / BUCKETS)
      ctx.stroke(ring)
    })
    ctx.globalAlpha = 1
    // Search hits: ringed in the accent colour, on top.
    if (highlight) {
      const hits = new Path2D()
      for (const id of highlight) {
        const node = byId.get(id)
        if (!node) continue
        const r = Math.max(3, node.r * scale) + 3
        hits.moveTo(node.x * scale + r, node.y * scale)
        hits.arc(node.x * scale, node.y * scale, r, 0, Math.PI * 2)
      }
      ctx.strokeStyle = colors.accent
      ctx.lineWidth = 2.5
      ctx.stroke(hits)
    }
    const focus = pinned || hover
    if (focus) {
      ctx.beginPath()
      ctx.arc(focus.x * scale, focus.y * scale, Math.max(4, focus.r * scale) + 4, 0, Math.PI * 2)
      ctx.strokeStyle = colors.text
      ctx.lineWidth = 2
      ctx.stroke()
    }
    // Labels: brands above their circle, categories inside when there is room.
    ctx.textAlign = 'center'
    ctx.textBaseline = 'bottom'
    for (const group of graph.groups) {
      const r = group.r * scale
      if (group.kind === 'brand' && r > 22) label(group.brand ?? 'no brand', group.x * scale, (group.y - group.r) * scale + 14, 12, colors.text)
      else if (group.kind === 'category' && r > 36) label(group.category ?? 'uncategorised', group.x * scale, (group.y + group.r) * scale - 2, 10, colors.muted)
    }
    void brands
  }

  function loop(now) {
    frame = 0
    draw(now)
    if (!reduceMotion.matches && !document.hidden) frame = requestAnimationFrame(loop)
  }
  function redraw() {
    if (frame) return // the loop draws the next frame anyway
    if (!reduceMotion.matches) frame = requestAnimationFrame(loop)
    else draw(performance.now())
  }

  function nodeAt(event) {
    const rect = canvas.getBoundingClientRect()
    const gx = (event.clientX - rect.left) / scale
    const gy = (event.clientY - rect.top) / scale
    let best = null
    let bestDistance = Infinity
    const cx = Math.floor(gx / CELL)
    const cy = Math.floor(gy / CELL)
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const node of grid.get(`${cx + dx},${cy + dy}`) || []) {
          const d = Math.hypot(node.x - gx, node.y - gy)
          if (d < bestDistance && d <= node.r + 6 / scale) {
            best = node
            bestDistance = d
          }
        }
      }
    }
    return best
  }

  function showTip(node) {
    if (!node) {
      tip.hidden = true
      return
    }
    const group = groupOf(node)
    tip.replaceChildren()
    const name = document.createElement('strong')
    name.textContent = node.name
    const where = document.createElement('span')
    where.className = 'group'
    where.textContent = group ? `${group.brand ?? 'no brand'} · ${group.category ?? 'uncategorised'}` : ''
    const state = document.createElement('span')
    state.className = node.online ? 'state online' : 'state offline'
    state.textContent = node.online ? 'online' : 'offline'
    const link = document.createElement('a')
    link.href = `/agent/${encodeURIComponent(node.id)}`
    link.textContent = 'Open the agent page'
    tip.append(name, where, state, document.createElement('br'), link)
    tip.hidden = false
    const x = node.x * scale
    const y = node.y * scale
    tip.style.left = `${Math.min(Math.max(0, x + 12), cssSize - 200)}px`
    tip.style.top = `${Math.max(0, y + 12)}px`
  }

  canvas.addEventListener('mousemove', (event) => {
    if (pinned) return
    const node = nodeAt(event)
    if (node !== hover) {
      hover = node
      canvas.classList.toggle('pointing', Boolean(node))
      showTip(node)
      redraw()
    }
  })
  canvas.addEventListener('mouseleave', () => {
    if (pinned) return
    hover = null
    showTip(null)
    redraw()
  })
  canvas.addEventListener('click', (event) => {
    const node = nodeAt(event)
    pinned = node && node !== pinned ? node : null
    hover = pinned
    showTip(pinned)
    redraw()
  })
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && pinned) {
      pinned = hover = null
      showTip(null)
      redraw()
    }
  })

  function listItem(agent) {
    const item = document.createElement('li')
    item.className = 'agent new'
    item.dataset.agentId = agent.id
    item.dataset.online = String(agent.online)
    const link = document.createElement('a')
    link.className = 'name'
    link.href = `/agent/${encodeURIComponent(agent.id)}`
    link.textContent = agent.name
    const group = document.createElement('span')
    group.className = 'group'
    group.textContent = `${agent.brand ?? 'no brand'} · ${agent.category ?? 'uncategorised'}`
    item.append(link, ' ', group, ' ', globalThis.meshSite.stateElement(agent.online, agent.last_seen))
    return item
  }
  function findItem(id) {
    return list ? list.querySelector(`li[data-agent-id="${CSS.escape(id)}"]`) : null
  }
  function updateItem(agent) {
    let item = findItem(agent.id)
    if (!item) {
      if (!list) return
      // A new agent joins this page when its id sorts inside it (or this is the last page).
      const items = [...list.children]
      const last = items[items.length - 1]
      const hasNext = Boolean(document.querySelector('nav.pager a[rel="next"]'))
      if (hasNext && last && agent.id > last.dataset.agentId) return
      item = listItem(agent)
      const before = items.find((other) => other.dataset.agentId > agent.id)
      list.insertBefore(item, before || null)
      return
    }
    item.dataset.online = String(agent.online)
    const name = item.querySelector('.name')
    if (name && name.textContent !== agent.name) name.textContent = agent.name
    const group = item.querySelector('.group')
    const where = `${agent.brand ?? 'no brand'} · ${agent.category ?? 'uncategorised'}`
    if (group && group.textContent !== where) group.textContent = where
    const old = item.querySelector('.state')
    const state = globalThis.meshSite.stateElement(agent.online, agent.last_seen)
    if (old) old.replaceWith(state)
    else item.append(state)
  }

  function updateCounts() {
    let online = 0
    for (const node of byId.values()) if (node.online) online++
    const agents = document.querySelector('[data-count="agents"]')
    const onlineCount = document.querySelector('[data-count="online"]')
    if (agents) agents.textContent = byId.size.toLocaleString('en')
    if (onlineCount) onlineCount.textContent = online.toLocaleString('en')
  }

  function onAgent(agent) {
    let node = byId.get(agent.id)
    if (node) {
      const group = groupOf(node)
      if (!group || group.brand !== agent.brand || group.category !== agent.category) scheduleReload()
      node.online = agent.online
      node.name = agent.name
    } else {
      // Placed inside its category's circle until the next layout arrives.
      const group = graph.groups.findIndex((g) => g.kind === 'category' && g.brand === agent.brand && g.category === agent.category)
      const home = graph.groups[group] || {x: graph.width / 2, y: graph.height / 2, r: graph.width / 2}
      const angle = hash(agent.id) * Math.PI * 2
      const distance = home.r * 0.7 * hash(`${agent.id}.`)
      const smallest = graph.nodes.reduce((r, n) => Math.min(r, n.r), 8)
      node = {id: agent.id, name: agent.name, group, online: agent.online, x: home.x + Math.cos(angle) * distance, y: home.y + Math.sin(angle) * distance, r: smallest, phase: hash(agent.id)}
      byId.set(agent.id, node)
      index()
      scheduleReload()
    }
    node.seenAt = performance.now()
    updateItem(agent)
    updateCounts()
    if (pinned === node || hover === node) showTip(node)
    redraw()
  }

  function follow() {
    if (!globalThis.meshLive) return
    globalThis.meshLive.subscribe('network', {
      event(name, data) {
        if (name !== 'agent') return
        try {
          onAgent(data)
        } catch (error) {
          figure.dataset.error = String(error.message || error)
        }
      },
      state(state) {
        figure.dataset.live = String(state === 'open')
      },
    })
  }

  // Search in place: POST /v1/search, then ring the results in the graph and mark them in the list.
  function markHits(ids) {
    highlight = ids.length ? new Set(ids) : null
    if (list) for (const item of list.children) item.classList.toggle('hit', Boolean(highlight && highlight.has(item.dataset.agentId)))
    draw(performance.now())
  }
  function showResults(query, operationalOnly, found, tookMs) {
    results.replaceChildren()
    const heading = document.createElement('h2')
    heading.id = 'results-heading'
    heading.textContent = found.length
      ? `${found.length} result${found.length === 1 ? '' : 's'} for “${query}”`
      : 'No agent found'
    results.append(heading)
    if (!found.length) {
      const p = document.createElement('p')
      p.textContent = `No online agent matches “${query}”${operationalOnly ? ' among the operational ones' : ''}.`
      results.append(p)
      return
    }
    const ol = document.createElement('ol')
    ol.className = 'results'
    for (const item of found) {
      const li = document.createElement('li')
      li.className = 'result'
      li.dataset.agentId = item.agent_id
      const link = document.createElement('a')
      link.className = 'name'
      link.href = `/agent/${encodeURIComponent(item.agent_id)}`
      link.textContent = item.display_name
      li.append(link)
      if (item.category) {
        const group = document.createElement('span')
        group.className = 'group'
        group.textContent = ` ${item.category}`
        li.append(group)
      }
      if (item.operational !== null && item.operational !== undefined) {
        const badge = document.createElement('span')
        badge.className = `badge ${item.operational ? 'good' : 'bad'}`
        badge.textContent = item.operational ? 'operational' : 'not operational'
        li.append(' ', badge)
      }
      if (item.description) {
        const description = document.createElement('p')
        description.className = 'description'
        description.textContent = item.description.length > 300 ? `${item.description.slice(0, 299)}…` : item.description
        li.append(description)
      }
      ol.append(li)
    }
    const took = document.createElement('p')
    took.className = 'took muted'
    took.textContent = `Searched in ${Math.round(tookMs)} ms.`
    results.append(ol, took)
  }
  function enhanceSearch() {
    if (!form || !results) return
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const started = performance.now()
      const query = form.elements.q.value.trim()
      const operationalOnly = form.elements.operational_only.checked
      const params = new URLSearchParams()
      if (query) params.set('q', query)
      if (query && operationalOnly) params.set('operational_only', '1')
      history.replaceState(null, '', params.size ? `/network?${params}` : '/network')
      if (!query) {
        results.replaceChildren()
        markHits([])
        return
      }
      figure.dataset.searching = 'true'
      fetch('/v1/search', {
        method: 'POST',
        headers: {'content-type': 'application/json', accept: 'application/json'},
        body: JSON.stringify({prompt: query, filters: {operational_only: operationalOnly, limit: 20}}),
      })
        .then((response) => response.text().then((text) => ({ok: response.ok, body: globalThis.meshSite.parse(text)})))
        .then(({ok, body}) => {
          if (!ok) throw new Error((body && body.error && body.error.message) || 'search failed')
          const found = body.results || []
          markHits(found.map((item) => item.agent_id))
          const highlightMs = performance.now() - started
          figure.dataset.highlightMs = highlightMs.toFixed(1)
          showResults(query, operationalOnly, found, highlightMs)
        })
        .catch((error) => {
          results.replaceChildren()
          const p = document.createElement('p')
          p.className = 'notice'
          p.setAttribute('role', 'alert')
          p.textContent = `Search failed: ${error.message || error}`
          results.append(p)
        })
        .finally(() => {
          delete figure.dataset.searching
        })
    })
  }

  readColors()
  darkScheme.addEventListener('change', () => {
    readColors()
    redraw()
  })
  reduceMotion.addEventListener('change', redraw)
  document.addEventListener('visibilitychange', redraw)
  if (window.ResizeObserver) new ResizeObserver(() => resize()).observe(canvas)
  else window.addEventListener('resize', resize)
  // Results the server rendered (a ?q= link) are highlighted once the graph is in.
  const initialHits = results ? [...results.querySelectorAll('li[data-agent-id]')].map((item) => item.dataset.agentId) : []
  load().then(() => {
    if (initialHits.length) markHits(initialHits)
    redraw()
  })
  follow()
  enhanceSearch()
})()
