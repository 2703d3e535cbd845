// The board's two dialogs (docs/ide.md, Board): a task opened (GET /ide/tasks/<id>, a
// fragment the daemon renders and escapes: frontmatter, dependencies both ways, the
// resolution, the body from markdown) and a new task (POST /tasks, the daemon's refusal
// shown in the dialog). Focus goes back to where it was when a dialog closes.
'use strict'
;(() => {
  const {call, el, announce, csrf, parse, data} = globalThis.meshIde
  const initial = data()

  const taskDialog = document.getElementById('task-dialog')
  const createDialog = document.getElementById('create-dialog')
  let returnFocus = null

  async function taskFragment(id) {
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
    if (!taskDialog.open) taskDialog.showModal()
    taskDialog.setAttribute('aria-busy', 'true')
    try {
      const fragment = await taskFragment(id)
      // The one place markup is inserted: the daemon's own rendering, every task value escaped
      // there (src/daemon/ide/board/task-view.ts); innerHTML never runs a script, and the CSP none.
      taskDialog.innerHTML = fragment
    } catch (error) {
      taskDialog.replaceChildren(
        el('div', {class: 'dialog-head'}, el('h2', {id: 'task-dialog-title'}, id), el('button', {type: 'button', class: 'quiet', 'data-close': true}, 'Close')),
        el('div', {class: 'dialog-body'}, el('p', {role: 'alert'}, `${id} could not be opened: ${error.message}`)),
      )
    }
    taskDialog.removeAttribute('aria-busy')
    taskDialog.querySelector('[data-close]')?.focus()
  }

  document.addEventListener('click', (event) => {
    const opener = event.target.closest?.('[data-open]')
    if (opener) {
      event.preventDefault()
      openTask(opener.dataset.open, taskDialog.contains(opener) ? null : opener.closest('.card'))
      return
    }
    const closer = event.target.closest?.('[data-close]')
    if (closer) closer.closest('dialog')?.close()
  })
  document.addEventListener('mesh:open-task', (event) => openTask(event.detail.id, event.detail.from))
  for (const dialog of [taskDialog, createDialog]) {
    dialog.addEventListener('close', () => {
      const target = returnFocus
      returnFocus = null
      if (target?.isConnected) target.focus()
    })
  }

  // A new task.
  const form = document.getElementById('create-form')
  const createNotice = document.getElementById('create-notice')
  const moduleSelect = document.getElementById('create-module')
  const initiativeSelect = document.getElementById('create-initiative')
  for (const module of initial.modules) moduleSelect.append(el('option', {value: module.id}, module.name === module.id ? module.id : `${module.id} — ${module.name}`))
  for (const initiative of initial.initiatives) initiativeSelect.append(el('option', {value: initiative.id}, `${initiative.id} — ${initiative.title}`))

  document.getElementById('new-task').addEventListener('click', (event) => {
    returnFocus = event.target
    createNotice.replaceChildren()
    createDialog.showModal()
    document.getElementById('create-task-title').focus()
  })

  const list = (value) =>
    value
      .split(/[,\s]+/)
      .map((item) => item.trim())
      .filter(Boolean)

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const fields = new FormData(form)
    const body = {module: fields.get('module'), title: String(fields.get('title')).trim(), status: fields.get('status'), priority: fields.get('priority')}
    const owner = String(fields.get('owner')).trim()
    if (owner) body.owner = owner
    if (fields.get('initiative')) body.initiative = fields.get('initiative')
    const dependsOn = list(String(fields.get('depends_on')))
    if (dependsOn.length) body.depends_on = dependsOn
    const tags = list(String(fields.get('tags')))
    if (tags.length) body.tags = tags
    const submit = form.querySelector('[type="submit"]')
    submit.disabled = true
    try {
      const created = await call('POST', '/tasks', body)
      form.reset()
      createDialog.close()
      announce(`Created ${created.id}`)
      await globalThis.meshBoard?.refresh()
    } catch (error) {
      createNotice.replaceChildren(el('p', {}, `The task was not created: ${error.message} (${error.code})`))
    } finally {
      submit.disabled = false
    }
  })
})()
