// A task opened from any view (docs/ide.md): a `[data-open="<id>"]` button, or a `mesh:open-task`
// event (the board's keyboard), fills #task-dialog with GET /ide/tasks/<id>, the fragment the daemon
// renders and escapes (src/daemon/ide/board/task-view.ts). Ids inside the dialog open their task in
// it; focus goes back to the opener (a board card rather than its id button) when it closes.
'use strict'
;(() => {
  const {el, csrf, parse} = globalThis.meshIde
  const dialog = document.getElementById('task-dialog')
  if (!dialog) return
  let returnFocus = null

  async function fragment(id) {
    const response = await fetch(`/ide/tasks/${encodeURIComponent(id)}`, {headers: {Accept: 'text/html', 'X-Mesh-CSRF': csrf}, credentials: 'same-origin', cache: 'no-store'})
    const text = await response.text()
    if (response.ok) return text
    let message = `The daemon answered ${response.status}`
    try {
      message = parse(text).error.message
    } catch {
      // Not the daemon's JSON error: its status says enough.
    }
    throw new Error(message)
  }

  async function openTask(id, from) {
    if (from) returnFocus = from
    if (!dialog.open) dialog.showModal()
    dialog.setAttribute('aria-busy', 'true')
    try {
      const markup = await fragment(id)
      // The daemon's own rendering, every task value escaped there; innerHTML never runs a script, and the CSP none.
      dialog.innerHTML = markup
    } catch (error) {
      dialog.replaceChildren(
        el('div', {class: 'dialog-head'}, el('h2', {id: 'task-dialog-title'}, id), el('button', {type: 'button', class: 'quiet', 'data-close': true}, 'Close')),
        el('div', {class: 'dialog-body'}, el('p', {role: 'alert'}, `${id} could not be opened: ${error.message}`)),
      )
    }
    dialog.removeAttribute('aria-busy')
    dialog.querySelector('[data-close]')?.focus()
  }

  document.addEventListener('click', (event) => {
    const opener = event.target.closest?.('[data-open]')
    if (opener) {
      event.preventDefault()
      openTask(opener.dataset.open, dialog.contains(opener) ? null : (opener.closest('.card') ?? opener))
      return
    }
    const closer = event.target.closest?.('[data-close]')
    if (closer) closer.closest('dialog')?.close()
  })
  document.addEventListener('mesh:open-task', (event) => openTask(event.detail.id, event.detail.from))
  dialog.addEventListener('close', () => {
    const target = returnFocus
    returnFocus = null
    if (target?.isConnected) target.focus()
  })
  globalThis.meshTaskDialog = Object.freeze({open: openTask})
})()
