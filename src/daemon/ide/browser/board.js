// The board's state and moves (docs/ide.md, Board). Tasks come with the page; when /events
// says a task changed, its card moves at once and GET /tasks?ids=… brings it and the tasks
// that depend on it (one read at a time, what came meanwhile in the next); the whole board
// is read again after the socket was away. A move goes through
// POST /tasks/<id>/transition: the card moves at once, and goes back with the daemon's
// answer shown when it refuses (a member promoting a draft: operator_only).
'use strict'
;(() => {
  const {call, el, announce, notify, events, data} = globalThis.meshIde
  const {TARGETS, LABELS, columnOf, fillCard, matches, fillOptions, setCount} = globalThis.meshBoardCards

  const initial = data()
  const writtenAs = initial.written_as
  /** id → task, in the daemon's order (dispatch order: priority, order, id). */
  let tasks = new Map(initial.tasks.map((task) => [task.id, task]))
  const cards = new Map()
  const filters = {text: '', module: '', initiative: '', owner: '', tag: ''}
  const lists = Object.fromEntries([...document.querySelectorAll('ul.cards[data-status]')].map((list) => [list.dataset.status, list]))

  const cardOf = (id) => {
    let card = cards.get(id)
    if (!card) {
      card = el('li')
      cards.set(id, card)
    }
    return card
  }

  /** What a card was last drawn from: a card whose task and column did not change is left alone (focus inside it stays). */
  const drawn = new Map()

  /** Puts `wanted` into `list` in order, moving only the cards that are not in place (a moved element loses focus). */
  function place(list, wanted) {
    let at = list.firstElementChild
    for (const card of wanted) {
      if (card === at) at = at.nextElementSibling
      else list.insertBefore(card, at)
    }
  }

  function render() {
    const focused = document.activeElement?.closest?.('.card')?.dataset.id
    const byColumn = Object.fromEntries(Object.keys(lists).map((status) => [status, []]))
    let shown = 0
    for (const task of tasks.values()) {
      const column = columnOf(task, writtenAs)
      const card = cardOf(task.id)
      const signature = JSON.stringify([column, task.status, task.title, task.priority, task.owner, task.module, task.initiative, task.tags, task.dispatchable, task.blocked_by, task.problem, task.pending])
      if (drawn.get(task.id) !== signature) {
        fillCard(card, task, column)
        drawn.set(task.id, signature)
      }
      card.hidden = !matches(task, filters)
      if (!card.hidden) shown++
      byColumn[column].push(card)
    }
    for (const [id, card] of cards) {
      if (!tasks.has(id)) {
        card.remove()
        cards.delete(id)
        drawn.delete(id)
      }
    }
    for (const [status, list] of Object.entries(lists)) {
      place(list, byColumn[status])
      setCount(status, byColumn[status].filter((card) => !card.hidden).length, byColumn[status].length)
    }
    // Cards left behind moved to a list placed before this one's turn: what is not wanted here is gone by now.
    for (const [status, list] of Object.entries(lists)) {
      const wanted = new Set(byColumn[status])
      for (const card of [...list.children]) if (!wanted.has(card)) card.remove()
    }
    document.querySelector('.column[data-status="other"]').hidden = byColumn.other.length === 0
    document.getElementById('board').classList.toggle('with-other', byColumn.other.length > 0)
    const all = [...tasks.values()]
    const dispatchable = all.filter((task) => task.dispatchable).length
    document.getElementById('summary').textContent = `${all.length} tasks · ${dispatchable} dispatchable · ${byColumn.draft.length} drafts waiting for the operator${shown === all.length ? '' : ` · ${shown} shown`}`
    if (focused && cards.get(focused) && !cards.get(focused).contains(document.activeElement)) cards.get(focused).focus({preventScroll: true})
  }

  function renderFilters() {
    const all = [...tasks.values()]
    const initiatives = new Map(initial.initiatives.map((initiative) => [initiative.id, initiative.title]))
    fillOptions(document.getElementById('filter-module'), all.map((task) => task.module))
    fillOptions(document.getElementById('filter-initiative'), all.map((task) => task.initiative), (id) => (initiatives.get(id) ? `${id} — ${initiatives.get(id)}` : id))
    fillOptions(document.getElementById('filter-owner'), all.map((task) => task.owner))
    fillOptions(document.getElementById('filter-tag'), all.flatMap((task) => task.tags))
  }

  // Reading the board again, one read at a time. An event asks for the tasks it touched — the task and
  // those that depend on it, whose dispatchability follows it — with GET /tasks?ids=…; a reconnection, a
  // task new to the page or a changed order ask for the whole board. What is asked during a read is read
  // right after it, in one go.
  const PATCH_MAX = 100
  let reading = null
  let wantAll = false
  const wanted = new Set()

  /** A move still waiting for its answer keeps showing where it is going. */
  const keepPending = (task, known) => (known?.pending ? {...task, status: known.status, pending: true} : task)
  const filterKey = (task) => JSON.stringify([task.module, task.initiative, task.owner, task.tags])

  function replace(fresh) {
    const before = tasks
    tasks = new Map(fresh.map((task) => [task.id, keepPending(task, before.get(task.id))]))
    renderFilters()
    render()
  }

  /** The touched tasks as the daemon says they are now; false when the board's order may have changed. */
  function merge(ids, fresh) {
    const byId = new Map(fresh.map((task) => [task.id, task]))
    let filtersChanged = false
    for (const id of ids) {
      const task = byId.get(id)
      const known = tasks.get(id)
      if (!task) {
        // Deleted or archived.
        filtersChanged ||= tasks.delete(id)
        continue
      }
      // New to the page, or another priority or order: it takes another place in its column.
      if (!known || known.priority !== task.priority || known.order !== task.order) return false
      filtersChanged ||= filterKey(known) !== filterKey(task)
      tasks.set(id, keepPending(task, known))
    }
    if (filtersChanged) renderFilters()
    render()
    return true
  }

  async function drain() {
    try {
      while (wantAll || wanted.size > 0) {
        const ids = wantAll || wanted.size > PATCH_MAX ? null : [...wanted]
        wantAll = false
        wanted.clear()
        try {
          if (!ids) replace((await call('GET', '/tasks')).tasks)
          else if (!merge(ids, (await call('GET', `/tasks?ids=${ids.map(encodeURIComponent).join(',')}`)).tasks)) wantAll = true
        } catch (error) {
          if (error.code !== 'session_expired') notify(`The board could not be read again: ${error.message}`)
          return
        }
      }
    } finally {
      reading = null
    }
  }

  /** Reads `ids` again (with the tasks that depend on them), or the whole board without them. */
  function read(ids) {
    if (!ids) wantAll = true
    else for (const id of ids) for (const touched of [id, ...dependantsOf(id)]) wanted.add(touched)
    reading ??= drain()
    return reading
  }
  const refresh = () => read()
  const dependantsOf = (id) => [...tasks.values()].filter((task) => task.depends_on.includes(id)).map((task) => task.id)

  async function move(id, target) {
    const task = tasks.get(id)
    if (!task || task.pending || columnOf(task, writtenAs) === target) return
    const from = task.status
    const by = document.getElementById('move-as').value
    tasks.set(id, {...task, status: target, pending: true})
    render()
    try {
      const moved = await call('POST', `/tasks/${encodeURIComponent(id)}/transition`, by === 'operator' ? {status: target} : {status: target, by})
      const now = tasks.get(id)
      if (now) tasks.set(id, {...now, status: moved.to, dispatchable: moved.dispatchable && now.blocked_by.length === 0, pending: false})
      notify(null)
      announce(`${id} moved to ${LABELS[target]}`)
    } catch (error) {
      const now = tasks.get(id)
      if (now) tasks.set(id, {...now, status: from, pending: false})
      notify(`${id} was not moved to ${LABELS[target]}: ${error.message} (${error.code})`)
    }
    render()
    // Dependants may have become dispatchable: the daemon says so.
    read([id])
  }

  // Dragging with a pointer.
  let dragged = null
  document.addEventListener('dragstart', (event) => {
    const card = event.target.closest?.('.card')
    if (!card) return
    dragged = card.dataset.id
    event.dataTransfer.setData('text/plain', dragged)
    event.dataTransfer.effectAllowed = 'move'
    card.classList.add('dragging')
  })
  document.addEventListener('dragend', (event) => {
    event.target.closest?.('.card')?.classList.remove('dragging')
    for (const list of Object.values(lists)) list.classList.remove('drop-target')
    dragged = null
  })
  for (const [status, list] of Object.entries(lists)) {
    if (status === 'other') continue
    list.addEventListener('dragover', (event) => {
      if (!dragged) return
      event.preventDefault()
      event.dataTransfer.dropEffect = 'move'
      list.classList.add('drop-target')
    })
    list.addEventListener('dragleave', (event) => {
      if (!list.contains(event.relatedTarget)) list.classList.remove('drop-target')
    })
    list.addEventListener('drop', (event) => {
      event.preventDefault()
      list.classList.remove('drop-target')
      const id = event.dataTransfer.getData('text/plain') || dragged
      if (id) move(id, status)
    })
  }

  // Moving with the keyboard: Space picks a card up, the arrows choose the column, Space or Enter drops it, Escape cancels.
  let carrying = null
  const highlight = (status) => {
    for (const [name, list] of Object.entries(lists)) list.classList.toggle('drop-target', name === status)
  }
  function drop(commit) {
    if (!carrying) return
    const {id, target, from} = carrying
    carrying = null
    highlight(null)
    cards.get(id)?.classList.remove('moving')
    if (commit && target !== from) move(id, target)
    else announce(`${id} stays in ${LABELS[from]}`)
  }
  document.addEventListener('keydown', (event) => {
    const card = event.target.closest?.('.card')
    if (!card || event.target !== card) return
    const id = card.dataset.id
    if (carrying && carrying.id === id) {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        const at = TARGETS.indexOf(carrying.target)
        const next = TARGETS[Math.max(0, Math.min(TARGETS.length - 1, at + (event.key === 'ArrowRight' ? 1 : -1)))]
        carrying.target = next
        highlight(next)
        announce(`Put ${id} in ${LABELS[next]}?`)
      } else if (event.key === ' ' || event.key === 'Enter') drop(true)
      else if (event.key === 'Escape') drop(false)
      else return
      event.preventDefault()
      return
    }
    if (event.key === ' ') {
      const task = tasks.get(id)
      if (!task || task.pending) return
      const from = columnOf(task, writtenAs)
      carrying = {id, from, target: TARGETS.includes(from) ? from : 'backlog'}
      card.classList.add('moving')
      highlight(carrying.target)
      announce(`Moving ${id}, now in ${LABELS[from]}. Left and right arrows choose a column; Space or Enter puts it there; Escape cancels.`)
      event.preventDefault()
    } else if (event.key === 'Enter') {
      document.dispatchEvent(new CustomEvent('mesh:open-task', {detail: {id, from: card}}))
      event.preventDefault()
    }
  })
  document.addEventListener('focusout', (event) => {
    if (!carrying || event.target.closest?.('.card')?.dataset.id !== carrying.id) return
    // A redraw that moves the card takes focus away for a moment and gives it back: only leaving it for good cancels.
    setTimeout(() => {
      if (carrying && document.activeElement !== cards.get(carrying.id)) drop(false)
    })
  })

  // Filters.
  document.getElementById('filters').addEventListener('input', (event) => {
    const name = event.target.dataset?.filter
    if (!name) return
    filters[name] = event.target.value.trim()
    render()
  })
  document.getElementById('filters').addEventListener('submit', (event) => event.preventDefault())

  const moveAs = document.getElementById('move-as')
  for (const member of initial.members) moveAs.append(el('option', {value: member}, member))

  events({
    onEvent(envelope) {
      const {type, data: change} = envelope
      if (type === 'task.updated' && change && typeof change.to === 'string') {
        // Move the card at once; the read that follows brings the rest (its title, its dependants).
        const task = tasks.get(change.id)
        if (task && !task.pending && task.status !== change.to) {
          tasks.set(change.id, {...task, status: change.to})
          render()
        }
      }
      if ((type === 'task.updated' || type === 'task.created' || type === 'task.deleted' || type === 'task.archived') && typeof change?.id === 'string') read([change.id])
    },
    // Every (re)connection may follow missed events: read the board again.
    onOpen: () => refresh(),
  })

  globalThis.meshBoard = Object.freeze({refresh, tasks: () => tasks})
  renderFilters()
  render()
})()
