// The board's new-task dialog (docs/ide.md, Board): POST /tasks, the daemon's refusal shown in
// the dialog; focus goes back to the button when it closes. A task opens in task-dialog.js's dialog.
'use strict'
;(() => {
  const {call, el, announce, data} = globalThis.meshIde
  const initial = data()

  const createDialog = document.getElementById('create-dialog')
  let returnFocus = null

  // The task dialog is task-dialog.js's, shared with the other views.
  createDialog.addEventListener('close', () => {
    const target = returnFocus
    returnFocus = null
    if (target?.isConnected) target.focus()
  })

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
