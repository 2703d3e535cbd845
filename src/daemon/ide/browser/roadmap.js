// The Roadmap view (docs/ide.md, Roadmap): the daemon renders it; this keeps it current. After
// each state.rebuilt that rewrote roadmap/state.json — and after the socket was away — the
// view is fetched again (GET /ide/roadmap/fragment, an escaped fragment) and swapped in, focus kept on
// the task id it was on. One read at a time, one more if a rebuild came during it.
'use strict'
;(() => {
  const {csrf, events, notify, announce} = globalThis.meshIde
  const view = document.getElementById('roadmap')
  const filter = document.getElementById('roadmap-filter')

  // The text filter: every word must appear in a task's row (or an initiative's heading, which keeps its whole section).
  function applyFilter() {
    const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    const hit = (text) => words.every((word) => text.toLowerCase().includes(word))
    let shown = 0
    let all = 0
    for (const section of view.querySelectorAll('section.initiative')) {
      const whole = words.length === 0 || hit(section.querySelector('h2').textContent)
      let any = false
      for (const item of section.querySelectorAll('tr[data-task], .done-line [data-open]')) {
        const visible = whole || hit(item.textContent)
        item.hidden = !visible
        all++
        if (visible) (shown++, (any = true))
      }
      section.hidden = !whole && !any
    }
    document.getElementById('roadmap-shown').textContent = words.length ? `${shown} of ${all} tasks match` : ''
  }
  filter.addEventListener('input', applyFilter)
  document.getElementById('roadmap-filters').addEventListener('submit', (event) => event.preventDefault())

  let reading = null
  let again = false
  async function refresh() {
    if (reading) {
      again = true
      return reading
    }
    reading = (async () => {
      try {
        const response = await fetch('/ide/roadmap/fragment', {headers: {Accept: 'text/html', 'X-Mesh-CSRF': csrf}, credentials: 'same-origin', cache: 'no-store'})
        if (!response.ok) throw new Error(`the daemon answered ${response.status}`)
        const markup = await response.text()
        const focused = document.activeElement?.dataset?.open
        // The daemon's own rendering, every value escaped there (src/daemon/state/roadmap-view.ts).
        view.innerHTML = markup
        applyFilter()
        if (focused) view.querySelector(`[data-open="${CSS.escape(focused)}"]`)?.focus({preventScroll: true})
        notify(null)
        announce('The roadmap was updated')
      } catch (error) {
        notify(`The roadmap could not be read again: ${error.message}`)
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

  const rewritesRoadmap = (data) => Array.isArray(data?.files) && data.files.some((file) => file.path === '.mesh/roadmap/state.json' && file.changed)
  events({
    onEvent(envelope) {
      if (envelope.type === 'state.rebuilt' && rewritesRoadmap(envelope.data)) refresh()
    },
    onOpen: (afterGap) => {
      if (afterGap) refresh()
    },
  })
  globalThis.meshRoadmap = Object.freeze({refresh})
})()
