// The Team view's queue pane (docs/ide.md, Team): the shown conversation's queue
// (GET /chat/conv/<conv>/queue), read again after each of its queue.* events, and its
// actions — add, edit, move up or down, send now (promote), remove, resume a paused queue.
// Each write carries the version last read, so a queue that moved on meanwhile (the
// dispatcher sent its head) is refused with version_conflict and read again, never overwritten.
'use strict'
;(() => {
  const {call, el, notify, announce, coalesced} = globalThis.meshIde

  const path = (conv, rest = '') => `/chat/conv/${encodeURIComponent(conv)}/queue${rest}`

  function createQueue() {
    const list = document.getElementById('queue-items')
    const count = document.getElementById('queue-count')
    const stateLine = document.getElementById('queue-state')
    const resume = document.getElementById('queue-resume')
    let conv = null
    let file = null
    /** The item being edited: its editor stays open across redraws. */
    let editing = null
    /** The editor's text as typed so far (null: not touched yet). */
    let draft = null
    /** `{id, label}`: the button to focus once the queue is drawn again after an action. */
    let refocus = null

    function draw() {
      const items = file?.items ?? []
      count.textContent = String(items.length)
      if (!conv) stateLine.textContent = 'A new conversation has no queue yet: send its first message.'
      else if (file?.state === 'paused') stateLine.textContent = `Paused: ${file.paused?.reason ?? 'a turn failed'}. Nothing is sent by itself until you resume it.`
      else stateLine.textContent = items.length ? 'Sent one at a time, each when the conversation goes idle.' : 'Nothing queued.'
      resume.hidden = file?.state !== 'paused'
      // A redraw replaces the rows: the focus goes back to the same button of the same item (or where an action asked).
      const active = list.contains(document.activeElement) ? document.activeElement : null
      const wanted = refocus ?? (active ? {id: active.closest('.queue-item')?.dataset.id, label: active.textContent} : null)
      list.replaceChildren(...items.map((item, index) => itemRow(item, index, items.length)))
      const row = wanted && list.querySelector(`[data-id="${CSS.escape(wanted.id ?? '')}"]`)
      if (!row) return
      refocus = null
      if (editing === wanted.id) return
      const buttons = [...row.querySelectorAll('button')].filter((node) => !node.disabled)
      ;(buttons.find((node) => node.textContent === wanted.label) ?? buttons[0])?.focus()
    }

    function button(label, action, options = {}) {
      const node = el('button', {type: 'button', class: options.kind ?? 'quiet small', 'aria-label': options.aria ?? null, disabled: options.disabled ?? false}, label)
      node.addEventListener('click', action)
      return node
    }

    function itemRow(item, index, total) {
      const name = `item ${index + 1}`
      const row = el('li', {class: 'queue-item', 'data-id': item.id, 'data-status': item.status})
      if (editing === item.id) {
        const area = el('textarea', {rows: 3, 'aria-label': `Text of queued ${name}`, maxlength: 65536})
        // What was typed survives a redraw (an event of this queue while editing).
        area.value = draft ?? item.text
        area.addEventListener('input', () => {
          draft = area.value
        })
        const save = button('Save', () => write('edit', item, {text: area.value}, `Queued ${name} edited`, 'Edit'), {kind: 'small'})
        const cancel = button('Cancel', () => {
          editing = null
          draw()
        })
        row.append(area, el('div', {class: 'buttons'}, save, cancel))
        queueMicrotask(() => area.focus())
        return row
      }
      const queued = item.status === 'queued'
      const status = item.status === 'queued' ? null : el('p', {class: `badge ${item.status}`}, item.status === 'failed' ? `failed: ${item.failed_reason ?? ''}` : item.status)
      const edit = () => {
        editing = item.id
        draft = null
        draw()
      }
      const buttons = el(
        'div',
        {class: 'buttons'},
        button('Send now', () => write('promote', item, {}, `Queued ${name} sent`), {aria: `Send now — queued ${name}`, disabled: item.status === 'sending'}),
        button('Edit', edit, {aria: `Edit — queued ${name}`, disabled: !queued}),
        button('Up', () => write('move', item, {position: index - 1}, `Queued ${name} moved up`, 'Up'), {aria: `Up — queued ${name}`, disabled: !queued || index === 0}),
        button('Down', () => write('move', item, {position: index + 1}, `Queued ${name} moved down`, 'Down'), {aria: `Down — queued ${name}`, disabled: !queued || index === total - 1}),
        button('Remove', () => write('remove', item, {}, `Queued ${name} removed`), {aria: `Remove — queued ${name}`, kind: 'danger small', disabled: item.status === 'sending'}),
      )
      row.append(...[el('p', {class: 'text'}, item.text), status, buttons].filter(Boolean))
      return row
    }

    async function write(action, item, body, done, label = '') {
      const version = file?.version
      try {
        if (action === 'remove') await call('DELETE', path(conv, `/${encodeURIComponent(item.id)}${typeof version === 'number' ? `?version=${version}` : ''}`))
        else await call('POST', path(conv, `/${encodeURIComponent(item.id)}/${action}`), {...body, version})
        if (action === 'edit') {
          editing = null
          draft = null
        }
        notify(null)
        announce(done)
      } catch (error) {
        notify(`The queue was not changed: ${error.message} (${error.code})`)
      }
      // Keyboard users keep their place: the moved or edited item's same button (Up at the top is off: its first one that is on).
      if (action === 'move' || action === 'edit') refocus = {id: item.id, label}
      await load()
    }

    /** Reads the shown queue again: one read at a time, one more if asked during it. */
    const reread = coalesced(async () => {
      const asked = conv
      try {
        const read = await call('GET', path(asked))
        if (asked === conv) {
          file = read
          draw()
        }
      } catch (error) {
        if (error.code !== 'session_expired') notify(`The queue of ${asked} could not be read: ${error.message}`)
      }
    })
    function load() {
      if (conv) return reread()
      file = null
      draw()
      return Promise.resolve()
    }

    resume.addEventListener('click', async () => {
      try {
        await call('POST', path(conv, '/resume'), {version: file?.version})
        announce('Queue resumed')
      } catch (error) {
        notify(`The queue was not resumed: ${error.message} (${error.code})`)
      }
      load()
    })

    return {
      /** Shows another conversation's queue (null: a new conversation). */
      show(next) {
        conv = next
        file = null
        editing = null
        return load()
      },
      load,
      /** Adds text at the end of the shown conversation's queue. */
      async add(text, member) {
        await call('POST', path(conv), member ? {text, member} : {text})
        announce('Added to the queue')
        await load()
      },
      conv: () => conv,
    }
  }

  globalThis.meshTeamQueue = Object.freeze({createQueue})
})()
