// The Roadmap view (docs/ide.md, Roadmap): the daemon renders it; this keeps it current. After
// each state.rebuilt that rewrote roadmap/state.json — and after the socket was away — the
// view is fetched again (GET /ide/roadmap/fragment, an escaped fragment) and swapped in, focus kept on
// the task id it was on. One read at a time, one more if a rebuild came during it.
'use strict'
;(() => {
  const {csrf, events, notify, announce} = globalThis.meshIde
  const view = document.getElementById('roadmap')

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
