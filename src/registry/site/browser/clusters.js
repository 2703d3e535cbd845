// The clusters pages, live: follows the `clusters` topic of the site's shared
// stream (live.js; the events of /clusters/events). On the catalog, new public clusters' rows appear at the top of the
// first page and every online count moves; on a cluster page, its own count
// moves. Every value is set as text, never as markup.
'use strict'
;(() => {
  const rows = document.getElementById('cluster-rows')
  const facts = document.getElementById('cluster-facts')
  if (!rows && !facts) return
  if (!globalThis.meshLive) return
  const state = document.getElementById('live-state')
  const total = document.getElementById('catalog-total')
  const ownId = facts ? facts.dataset.clusterId : null

  const say = (text) => {
    if (state) state.textContent = text
  }

  const countsOf = (id) => [...document.querySelectorAll('.online-count[data-cluster-id]')].filter((el) => el.dataset.clusterId === id)

  const setOnline = (id, online) => {
    for (const el of countsOf(id)) {
      el.dataset.online = String(online)
      const n = el.querySelector('.n')
      if (n) n.textContent = String(online)
      el.classList.toggle('active', online > 0)
      el.classList.add('changed')
      setTimeout(() => el.classList.remove('changed'), 1500)
    }
  }

  const cell = (content, className) => {
    const td = document.createElement('td')
    if (className) td.className = className
    if (content instanceof Node) td.append(content)
    else if (content) td.textContent = content
    else {
      const dash = document.createElement('span')
      dash.className = 'muted'
      dash.textContent = '—'
      td.append(dash)
    }
    return td
  }

  const whereText = (where) => {
    if (!where) return null
    if (where.label && where.label.trim()) return where.label
    return `${Number(where.lat).toFixed(2)}, ${Number(where.lon).toFixed(2)}`
  }

  const countNode = (id, online) => {
    const span = document.createElement('span')
    span.className = online > 0 ? 'online-count active' : 'online-count'
    span.dataset.clusterId = id
    span.dataset.online = String(online)
    const dot = document.createElement('span')
    dot.className = 'dot'
    dot.setAttribute('aria-hidden', 'true')
    const n = document.createElement('span')
    n.className = 'n'
    n.textContent = String(online)
    span.append(dot, n, ' online')
    return span
  }

  const addRow = (cluster) => {
    if (!rows || rows.dataset.live !== 'prepend') return
    if ([...rows.children].some((tr) => tr.dataset.clusterId === cluster.id)) return
    const tr = document.createElement('tr')
    tr.dataset.clusterId = cluster.id
    tr.className = 'fresh'
    const link = document.createElement('a')
    // href comes from the server (/clusters/<encoded slug or id>); checked to be a local path anyway.
    const href = typeof cluster.href === 'string' && cluster.href.startsWith('/clusters/') ? cluster.href : '/clusters'
    link.setAttribute('href', href)
    link.textContent = cluster.name || 'Unnamed cluster'
    tr.append(cell(link), cell(cluster.topic), cell(cluster.description), cell(whereText(cluster.where), 'where'), cell(countNode(cluster.id, cluster.online), 'num'))
    rows.prepend(tr)
    const empty = document.getElementById('catalog-empty')
    if (empty) empty.remove()
    setTimeout(() => tr.classList.remove('fresh'), 4000)
    addPoint(cluster, href)
  }

  // A new cluster's point, projected by the server with the map's own projection.
  const SVG = 'http://www.w3.org/2000/svg'
  const addPoint = (cluster, href) => {
    const map = document.getElementById('clusters-map')
    const point = cluster.point
    if (!map || !Array.isArray(point) || point.length !== 2 || !point.every(Number.isFinite)) return
    const label = `${cluster.name || 'Unnamed cluster'} — ${whereText(cluster.where) || ''}`
    const a = document.createElementNS(SVG, 'a')
    a.setAttribute('href', href)
    a.setAttribute('aria-label', label)
    const circle = document.createElementNS(SVG, 'circle')
    circle.setAttribute('class', 'point fresh')
    circle.setAttribute('cx', String(point[0]))
    circle.setAttribute('cy', String(point[1]))
    circle.setAttribute('r', '5')
    const title = document.createElementNS(SVG, 'title')
    title.textContent = label
    circle.append(title)
    a.append(circle)
    map.append(a)
  }

  const changeTotal = (delta) => {
    if (!total) return
    const count = Math.max(0, Number(total.dataset.count || 0) + delta)
    total.dataset.count = String(count)
    total.textContent = `${count} public ${count === 1 ? 'cluster' : 'clusters'}`
  }

  const onEvent = {
    ready() {
      document.body.dataset.live = 'on'
      say('')
    },
    'cluster.added'(cluster) {
      if (!cluster || typeof cluster.id !== 'string') return
      changeTotal(1)
      addRow(cluster)
      say(`New cluster: ${cluster.name || 'Unnamed cluster'}`)
    },
    'cluster.online'(change) {
      if (!change || typeof change.id !== 'string' || typeof change.online !== 'number') return
      setOnline(change.id, change.online)
    },
    'cluster.removed'(change) {
      if (!change || typeof change.id !== 'string') return
      if (ownId === change.id) say('This cluster was deleted or is no longer public.')
      if (rows) {
        for (const tr of rows.children) {
          if (tr.dataset.clusterId === change.id) {
            tr.classList.add('gone')
            changeTotal(-1)
          }
        }
      }
    },
  }

  globalThis.meshLive.subscribe('clusters', {
    event(name, data) {
      if (Object.hasOwn(onEvent, name)) onEvent[name](data)
    },
    state(state) {
      if (state !== 'closed') return
      document.body.dataset.live = 'off'
      say('Live updates paused; reconnecting…')
    },
  })
})()
