// The board's drawing (docs/ide.md, Board): which column a status lands in, a task's card,
// the filters, the counts. Pure DOM building through meshIde.el — every task value is a
// text node, never markup, so a hostile title stays text. board.js holds the state.
'use strict'
;(() => {
  const {el} = globalThis.meshIde

  /** Left to right; drafts have their own lane above the columns. */
  const COLUMNS = ['backlog', 'next', 'active', 'blocked', 'done']
  /** The order the keyboard walks through: the draft lane, then the columns. */
  const TARGETS = ['draft', ...COLUMNS]
  const LABELS = {draft: 'Drafts', backlog: 'Backlog', next: 'Next', active: 'Active', blocked: 'Blocked', done: 'Done', other: 'Other'}

  /** The column of a status: its written form (`planned` is next, `doing` active), else `other` (cancelled, unknown). */
  function columnOf(task, writtenAs) {
    if (task.problem) return 'other'
    const written = writtenAs[task.status] ?? task.status
    return TARGETS.includes(written) ? written : 'other'
  }

  function badges(task) {
    if (task.problem) return [el('span', {class: 'badge problem'}, 'unreadable file')]
    if (task.dispatchable) return [el('span', {class: 'badge dispatchable', title: 'The architect may hand it out now (spec v15)'}, 'dispatchable')]
    return []
  }

  function blockedLine(task, column) {
    if (task.blocked_by.length === 0) return column === 'blocked' ? el('p', {class: 'blocked-by'}, 'Blocked: no open dependency is named') : null
    if (column === 'done' || column === 'draft') return null
    const verb = column === 'blocked' ? 'Blocked by' : 'Waits on'
    return el('p', {class: 'blocked-by'}, `${verb} ${task.blocked_by.join(', ')}`)
  }

  /** The card's content (its element is kept across redraws, so focus stays on it). */
  function fillCard(card, task, column) {
    card.className = `card${column === 'draft' ? ' draft' : ''}${task.pending ? ' pending' : ''}`
    card.dataset.id = task.id
    card.dataset.status = task.status
    card.draggable = true
    card.tabIndex = 0
    card.setAttribute('aria-describedby', 'board-help')
    const meta = [task.owner && `owner ${task.owner}`, task.module, task.initiative && `initiative ${task.initiative}`].filter(Boolean).join(' · ')
    const parts = [
      el('div', {class: 'top'}, el('span', {class: 'id'}, task.id), el('span', {class: `priority ${task.priority}`}, task.priority || 'no priority')),
      el('button', {type: 'button', class: 'open', 'data-open': task.id}, task.title || '(no title)'),
      meta ? el('p', {class: 'meta'}, meta) : null,
      task.tags.length ? el('ul', {class: 'tags', 'aria-label': 'Tags'}, task.tags.map((tag) => el('li', {}, tag))) : null,
      ...badges(task),
      blockedLine(task, column),
      column === 'draft' ? el('p', {class: 'meta'}, 'Waiting for the operator to promote it') : null,
    ]
    card.replaceChildren(...parts.filter(Boolean))
    return card
  }

  /** Whether a task passes the filters: the text in its id, title, owner, module, initiative or tags; each select exactly. */
  function matches(task, filters) {
    if (filters.module && task.module !== filters.module) return false
    if (filters.initiative && task.initiative !== filters.initiative) return false
    if (filters.owner && task.owner !== filters.owner) return false
    if (filters.tag && !task.tags.includes(filters.tag)) return false
    if (!filters.text) return true
    const haystack = [task.id, task.title, task.owner, task.module, task.initiative ?? '', ...task.tags].join('\n').toLowerCase()
    return filters.text
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((word) => haystack.includes(word))
  }

  /** Refills a filter's options from what the tasks hold, keeping the choice made (and a choice no task has any more). */
  function fillOptions(select, values, labelOf = (value) => value) {
    const chosen = select.value
    const all = [...new Set(values.filter(Boolean))].sort((a, b) => a.localeCompare(b))
    if (chosen && !all.includes(chosen)) all.push(chosen)
    select.replaceChildren(el('option', {value: ''}, select.dataset.filter ? 'All' : 'none'), ...all.map((value) => el('option', {value}, labelOf(value))))
    select.value = chosen
  }

  function setCount(status, shown, total) {
    const count = document.querySelector(`[data-count="${status}"]`)
    if (count) count.textContent = shown === total ? String(total) : `${shown} of ${total}`
  }

  globalThis.meshBoardCards = Object.freeze({COLUMNS, TARGETS, LABELS, columnOf, fillCard, matches, fillOptions, setCount})
})()
