// The board's state and moves (docs/ide.md, Board). Tasks come with the page, then from
// GET /tasks whenever /events says a task changed (coalesced: one read at a time, one more
// if events came during it) or after the socket was away. A move goes through
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

  // Re-reading the board: one GET /tasks at a time; events during it ask for one more.
  let reading = null
  let again = false
  function refresh() {
    if (reading) {
      again = true
      return reading
    }
    reading = (async () => {
      try {
        const answer = await call('GET', '/tasks')
        const pending = [...tasks.values()].filter((task) => task.pending)
        tasks = new Map(answer.tasks.map((task) => [task.id, task]))
        // A move still waiting for its answer keeps showing where it is going.
        for (const task of pending) if (tasks.has(task.id)) tasks.set(task.id, {...tasks.get(task.id), status: task.status, pending: true})
        renderFilters()
        render()
      } catch (error) {
        if (error.code !== 'session_expired') notify(`The board could not be read again: ${error.message}`)
      } finally {
        reading = null
        if (again) {
          again = false
          refresh()
        }
      }
    })()
    return reading
  }

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
    refresh()
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
        // Move the card at once; the read that follows brings everything else (title, dependants).
        const task = tasks.get(change.id)
        if (task && !task.pending && task.status !== change.to) {
          tasks.set(change.id, {...task, status: change.to})
          render()
        }
      }
      if (type === 'task.updated' || type === 'task.created' || type === 'task.deleted' || type === 'task.archived') refresh()
    },
    // Every (re)connection may follow missed events: read the board again.
    onOpen: () => refresh(),
  })

  globalThis.meshBoard = Object.freeze({refresh, tasks: () => tasks})
  renderFilters()
  render()
})()
