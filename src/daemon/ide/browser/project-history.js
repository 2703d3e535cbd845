// The Project view's debug stream and timeline (docs/ide.md, Project).
// - Debug stream: GET /debug/tail (the last 30 minutes) with the chosen minimum level and tags,
//   then followed with its `cursor` every second while the page is shown and not paused — the
//   stream is not on /events. A cursor smaller than the last one means the daemon restarted:
//   the list is read again.
// - Timeline: the days (GET /timeline) and one day's events (GET /timeline/<day>), read again
//   a moment after a timeline event arrives on the page's socket while today is shown.
'use strict'
;(() => {
  const {call, el} = globalThis.meshIde
  const $ = (id) => document.getElementById(id)
  const time = (iso) => (iso ? String(iso).slice(11, 23) : '')
  const KEPT = 500
  const MESSAGE_SHOWN = 2000
  const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

  // Debug stream.
  const debugRows = $('debug-log').tBodies[0]
  const level = $('debug-level')
  const tags = $('debug-tags')
  const pause = $('debug-pause')
  let cursor = null
  let generation = 0
  let timer
  let shown = 0

  const debugRow = (event) =>
    el('tr', {'data-lvl': event.lvl, 'data-tag': event.tag},
      el('td', {}, el('time', {datetime: event.ts}, time(event.ts))),
      el('td', {}, el('span', {class: `badge lvl-${event.lvl}`}, event.lvl)),
      el('td', {}, el('code', {}, event.tag)),
      el('td', {}, event.src),
      el('td', {class: 'message'}, clip(String(event.msg ?? ''), MESSAGE_SHOWN)),
    )

  /** One read of the stream: the whole window after a (re)start, else what came after `cursor`. */
  async function readTail() {
    const mine = generation
    const query = new URLSearchParams({last: '1800', level: level.value})
    const wanted = tags.value.split(',').map((tag) => tag.trim()).filter(Boolean).join(',')
    if (wanted) query.set('tag', wanted)
    if (cursor !== null) query.set('cursor', String(cursor))
    let answer
    try {
      answer = await call('GET', `/debug/tail?${query}`)
    } catch (error) {
      if (mine === generation) $('debug-summary').textContent = `The debug stream could not be read: ${error.message} (${error.code})`
      return error.code !== 'session_expired'
    }
    // The filters changed meanwhile: this answer is for the old ones.
    if (mine !== generation) return true
    if (cursor !== null && answer.cursor < cursor) {
      // The daemon restarted: its cursor counts from zero again.
      restart()
      return true
    }
    if (cursor === null) {
      debugRows.replaceChildren()
      shown = 0
    }
    cursor = answer.cursor
    for (const event of answer.events) debugRows.prepend(debugRow(event))
    shown += answer.events.length
    while (debugRows.rows.length > KEPT) debugRows.lastElementChild.remove()
    $('debug-summary').textContent = `${Math.min(shown, KEPT)} event${shown === 1 ? '' : 's'} shown${shown > KEPT ? ` (the latest ${KEPT})` : ''} · level ${level.value} or above${wanted ? ` · tags ${wanted}` : ''}`
    return true
  }

  // One read at a time: a call while one runs asks for another right after it (no event is shown twice).
  let tailReading = false
  let tailAgain = false
  async function follow() {
    clearTimeout(timer)
    if (tailReading) {
      tailAgain = true
      return
    }
    let going = true
    if (!pause.checked && document.visibilityState !== 'hidden') {
      tailReading = true
      going = await readTail()
      tailReading = false
    }
    if (tailAgain) {
      tailAgain = false
      follow()
    } else if (going) timer = setTimeout(follow, 1000)
  }
  function restart() {
    generation++
    cursor = null
    follow()
  }
  let typing
  level.addEventListener('change', restart)
  tags.addEventListener('input', () => {
    clearTimeout(typing)
    typing = setTimeout(restart, 300)
  })
  pause.addEventListener('change', () => !pause.checked && follow())
  $('debug-filters').addEventListener('submit', (event) => event.preventDefault())
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && follow())

  // Timeline by day.
  const daySelect = $('timeline-day')
  const filter = $('timeline-filter')
  const timelineRows = $('timeline-log').tBodies[0]
  let day = null
  let events = []
  let dayNote = ''
  const today = () => new Date().toISOString().slice(0, 10)

  function renderTimeline(note = dayNote) {
    dayNote = note
    const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    const matching = events.filter((event) => words.every((word) => `${event.type} ${event.author} ${event.text}`.toLowerCase().includes(word)))
    timelineRows.replaceChildren(
      ...matching
        .slice()
        .reverse()
        .map((event) => el('tr', {'data-type': event.type}, el('td', {}, el('time', {datetime: event.ts}, time(event.ts))), el('td', {}, el('code', {}, event.type)), el('td', {}, String(event.author ?? '')), el('td', {class: 'message'}, clip(String(event.text ?? ''), MESSAGE_SHOWN)))),
    )
    $('timeline-summary').textContent = day ? `${events.length} event${events.length === 1 ? '' : 's'} on ${day} (UTC), newest first${matching.length === events.length ? '' : ` · ${matching.length} match`}${note ? ` · ${note}` : ''}` : 'The timeline has no day yet.'
  }

  async function readDay() {
    if (!day) {
      events = []
      renderTimeline('')
      return
    }
    try {
      const answer = await call('GET', `/timeline/${encodeURIComponent(day)}`)
      events = answer.events
      const notes = [answer.truncated ? 'only its last 1,000 events' : '', answer.deltas ? `${answer.deltas} output line${answer.deltas === 1 ? '' : 's'} left out (each turn's final holds its text)` : ''].filter(Boolean)
      renderTimeline(notes.join(' · '))
    } catch (error) {
      events = []
      renderTimeline(`it could not be read: ${error.message} (${error.code})`)
    }
  }

  async function readDays() {
    try {
      const {days} = await call('GET', '/timeline')
      if (!day || !days.some((entry) => entry.day === day)) day = days[0]?.day ?? null
      daySelect.replaceChildren(...(days.length ? days.map((entry) => el('option', {value: entry.day, selected: entry.day === day}, `${entry.day} (${Math.max(1, Math.round(entry.bytes / 1024))} KB)`)) : [el('option', {value: ''}, 'No day yet')]))
    } catch (error) {
      $('timeline-summary').textContent = `The timeline could not be listed: ${error.message} (${error.code})`
    }
    await readDay()
  }
  daySelect.addEventListener('change', () => {
    day = daySelect.value || null
    readDay()
  })
  filter.addEventListener('input', () => renderTimeline())
  $('timeline-form').addEventListener('submit', (event) => event.preventDefault())

  let again
  document.addEventListener('mesh:event', (event) => {
    const {type, data} = event.detail
    const timelineLine = type === 'timeline.appended' || (data && typeof data.author === 'string' && typeof data.text === 'string' && type !== 'chat.assistant.delta')
    if (!timelineLine || (day && day !== today())) return
    clearTimeout(again)
    again = setTimeout(day ? readDay : readDays, 500)
  })
  document.addEventListener('mesh:reopen', (event) => {
    if (!event.detail) return
    readDays()
    restart()
  })
  follow()
  readDays()
})()
