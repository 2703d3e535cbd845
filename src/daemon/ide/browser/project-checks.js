// The Project view's validation and snapshots (docs/ide.md, Project).
// - Validation: GET /validate (mesh validate's report), said in the debug stream under the
//   spec's `ux.validation` (POST /debug/log); each finding links to its file at its line
//   (/ide/file?path=…#L<line>).
// - Snapshots: the files that have some (GET /snapshots/files), one file's (GET /snapshots),
//   a restore (POST /snapshots/restore with `before` the snapshot's time) and its undo (the
//   same route, `before` the time of the snapshot the restore kept).
'use strict'
;(() => {
  const {call, el, announce, data} = globalThis.meshIde
  const initial = data()
  const $ = (id) => document.getElementById(id)
  const when = (iso) => new Date(iso).toLocaleString()
  const FINDINGS_SHOWN = 500

  // Validation.
  const fileLink = (finding) => {
    const where = `${finding.file}${finding.line ? `:${finding.line}` : ''}`
    if (finding.file.startsWith('commit:')) return el('code', {}, where)
    return el('a', {href: `/ide/file?path=${encodeURIComponent(finding.file)}${finding.line ? `#L${finding.line}` : ''}`}, where)
  }
  async function validate() {
    const button = $('validate')
    const body = $('validation-body')
    button.disabled = true
    body.replaceChildren(el('p', {class: 'hint'}, 'Running mesh validate…'))
    try {
      const report = await call('GET', '/validate')
      const {files, errors, warnings, infos} = report.summary
      const line = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${infos} note${infos === 1 ? '' : 's'} in ${files} files`
      await call('POST', '/debug/log', {lvl: errors ? 'warn' : 'info', tag: 'ux.validation', msg: `mesh validate run from the IDE: ${line}`, data: report.summary}).catch(() => {})
      body.replaceChildren(
        ...[el('p', {class: report.ok ? 'ok-line' : 'problem-line', id: 'validation-summary'}, `${report.ok ? 'Valid' : 'Not valid'}: ${line}.`),
        report.findings.length === 0
          ? el('p', {}, 'No finding.')
          : el('div', {class: 'table-scroll'}, el('table', {class: 'log', id: 'findings'}, el('caption', {class: 'visually-hidden'}, 'Findings of mesh validate'),
              el('thead', {}, el('tr', {}, ['Severity', 'File', 'Rule', 'Message'].map((label) => el('th', {scope: 'col'}, label)))),
              el('tbody', {}, report.findings.slice(0, FINDINGS_SHOWN).map((finding) => el('tr', {'data-severity': finding.severity},
                el('td', {}, el('span', {class: `badge sev-${finding.severity}`}, finding.severity)), el('td', {}, fileLink(finding)), el('td', {}, el('code', {}, finding.rule)), el('td', {class: 'message'}, finding.message),
              ))))),
        report.findings.length > FINDINGS_SHOWN ? el('p', {class: 'hint'}, `${report.findings.length - FINDINGS_SHOWN} more: run mesh validate in the project for all.`) : null,
        ].filter(Boolean),
      )
      announce(`mesh validate: ${line}`)
    } catch (error) {
      await call('POST', '/debug/log', {lvl: 'warn', tag: 'ux.validation', msg: `mesh validate run from the IDE failed: ${error.message}`}).catch(() => {})
      body.replaceChildren(el('p', {class: 'problem-line'}, `mesh validate could not run: ${error.message} (${error.code})`))
    } finally {
      button.disabled = false
    }
  }
  $('validate').addEventListener('click', validate)

  // Snapshots.
  const select = $('snapshot-file')
  const notice = $('snapshot-notice')
  let chosen = initial.file
  const say = (...children) => notice.replaceChildren(...children)

  async function readFiles() {
    let files = []
    try {
      files = (await call('GET', '/snapshots/files')).files
    } catch (error) {
      say(el('p', {}, `The snapshots could not be listed: ${error.message} (${error.code})`))
    }
    if (chosen && !files.some((file) => file.path === chosen)) files.unshift({path: chosen, snapshots: 0, latest: null})
    select.replaceChildren(
      el('option', {value: ''}, files.length ? 'Choose a file…' : 'No file has a snapshot yet'),
      ...files.map((file) => el('option', {value: file.path, selected: file.path === chosen}, `${file.path} (${file.snapshots}${file.latest ? `, latest ${when(file.latest)}` : ''})`)),
    )
    await readSnapshots()
  }

  async function readSnapshots() {
    const body = $('snapshots-body')
    if (!chosen) {
      body.replaceChildren()
      return
    }
    try {
      const {snapshots} = await call('GET', `/snapshots?path=${encodeURIComponent(chosen)}`)
      body.replaceChildren(
        snapshots.length === 0
          ? el('p', {}, `${chosen} has no snapshot.`)
          : el('div', {class: 'table-scroll'}, el('table', {class: 'log', id: 'snapshot-list'}, el('caption', {class: 'visually-hidden'}, `Snapshots of ${chosen}`),
              el('thead', {}, el('tr', {}, ['Replaced at', 'By', 'Size', ''].map((label) => el('th', {scope: 'col'}, label)))),
              el('tbody', {}, snapshots.map((record) => el('tr', {'data-ts': record.ts},
                el('td', {}, el('time', {datetime: record.ts}, when(record.ts))), el('td', {}, el('code', {}, record.reason)), el('td', {class: 'num'}, `${record.bytes} B`),
                el('td', {}, el('button', {type: 'button', class: 'quiet', 'data-restore': record.ts, 'aria-label': `Restore ${chosen} as it was before ${when(record.ts)}`}, 'Restore')),
              ))))),
        el('p', {}, el('a', {href: `/ide/file?path=${encodeURIComponent(`.mesh/${chosen}`)}`}, `Open ${chosen} as it is now`)),
      )
    } catch (error) {
      body.replaceChildren(el('p', {class: 'problem-line'}, `The snapshots of ${chosen} could not be read: ${error.message} (${error.code})`))
    }
  }

  async function restore(path, before, undoing) {
    try {
      const result = await call('POST', '/snapshots/restore', {path, before})
      const done = undoing ? `Undone: ${path} is back as it was before the restore.` : `Restored ${path} as it was before ${when(result.restored.ts)}.`
      say(el('p', {}, done, ' ', result.undo && !undoing ? el('button', {type: 'button', id: 'snapshot-undo', 'data-undo': result.undo.ts, 'data-path': path}, 'Undo') : null))
      announce(done)
      $('snapshot-undo')?.focus()
    } catch (error) {
      say(el('p', {}, `${path} was not restored: ${error.message} (${error.code})`))
    }
    await readFiles()
  }

  select.addEventListener('change', () => {
    chosen = select.value || null
    say()
    readSnapshots()
  })
  $('snapshot-form').addEventListener('submit', (event) => event.preventDefault())
  document.addEventListener('click', (event) => {
    const restoring = event.target.closest?.('[data-restore]')
    if (restoring && chosen) restore(chosen, restoring.dataset.restore, false)
    const undo = event.target.closest?.('[data-undo]')
    if (undo) restore(undo.dataset.path, undo.dataset.undo, true)
  })
  document.addEventListener('mesh:refresh', (event) => event.detail === 'snapshots' && readFiles())
  document.addEventListener('mesh:event', (event) => {
    if (event.detail.type === 'snapshot.restored' && event.detail.data?.path === chosen) readSnapshots()
  })
  readFiles()
})()
