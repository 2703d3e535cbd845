// The Project view (docs/ide.md, Project): health and warnings (GET /health), versions
// (GET /info, the installed standard, each module's versions from GET /links), the links
// registry (GET /links, edited through POST /links/<id>) and storage (GET /storage/usage).
// It holds the page's one /events socket and passes each event on as `mesh:event` (and each
// reconnection as `mesh:reopen`) to project-checks.js and project-history.js. Every value
// is a text node; a link is made only of an absolute http(s) address.
'use strict'
;(() => {
  const {call, el, notify, announce, events, data} = globalThis.meshIde
  const initial = data()
  const LINK_FIELDS = {
    local: ['url', 'command', 'health'],
    prod: ['url', 'provider', 'project', 'region', 'deploy_command', 'deployed_version', 'deployed_sha', 'deployed_at', 'deployed_by'],
    repo: ['branch', 'head_sha', 'version'],
  }

  const $ = (id) => document.getElementById(id)
  const fill = (id, ...children) => $(id).replaceChildren(...children.flat())
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—')
  const bytes = (n) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`)
  const safeUrl = (value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
    } catch {
      return null
    }
  }
  /** An address as a link when it is http(s), else as text. */
  const address = (value) => (value ? (safeUrl(value) ? el('a', {href: safeUrl(value), rel: 'noreferrer noopener', target: '_blank'}, value) : el('code', {}, value)) : '—')
  const fields = (pairs) => el('dl', {class: 'fields'}, pairs.flatMap(([label, value]) => [el('dt', {}, label), el('dd', {}, value ?? '—')]))
  const failed = (what, error) => el('p', {class: 'problem-line'}, `${what} could not be read: ${error.message} (${error.code})`)

  // Health and warnings.
  let lastGit = null
  async function readHealth() {
    try {
      const health = await call('GET', '/health')
      const warnings = health.warnings ?? []
      const tree = health.context_tree ?? {}
      const transport = health.transport ?? {}
      const git = warnings.filter((line) => line.startsWith('git '))
      const standard = warnings.filter((line) => line.startsWith('standard '))
      fill(
        'health-body',
        el('h3', {}, `Warnings (${warnings.length})`),
        warnings.length ? el('ul', {class: 'warnings'}, warnings.map((line) => el('li', {}, line))) : el('p', {class: 'ok-line'}, 'No warnings: nothing needs the operator.'),
        el('div', {class: 'health-grid'}, [
          el('div', {}, el('h3', {}, 'Context budget'), fields([
            ['token estimate', `${tree.token_estimate ?? '?'} tokens`],
            ['words', el('span', {class: 'progress'}, el('progress', {max: tree.budget_words || 1, value: Math.min(tree.words ?? 0, tree.budget_words || 1), 'aria-label': `Context tree: ${tree.words} of ${tree.budget_words} words`}), ` ${tree.words ?? '?'} of ${tree.budget_words ?? '?'}`)],
            ['state', tree.over_budget ? el('span', {class: 'badge problem'}, 'over budget: architect dispatch refused') : el('span', {class: 'badge dispatchable'}, 'within budget')],
          ])),
          el('div', {}, el('h3', {}, 'Git'), git.length ? el('ul', {class: 'warnings'}, git.map((line) => el('li', {}, line))) : el('p', {}, 'No git problem reported.'), lastGit ? el('p', {class: 'hint'}, lastGit) : null),
          el('div', {}, el('h3', {}, 'Transport'), fields([
            ['state', el('span', {class: `badge ${transport.state === 'connected' ? 'dispatchable' : transport.state === 'failed' || transport.state === 'deleted' ? 'problem' : 'waiting'}`}, transport.state ?? 'unknown')],
            ['endpoint', transport.endpoint ? el('code', {}, transport.endpoint) : '—'],
            ['since', when(transport.since)],
            transport.last_error ? ['last error', transport.last_error] : null,
          ].filter(Boolean))),
          el('div', {}, el('h3', {}, 'Standard'), fields([
            ['installed', initial.standard_installed === null ? 'none' : `v${initial.standard_installed}`],
            ['catch-up', standard.length ? standard.join(' ') : 'no newer version known'],
          ])),
        ]),
      )
    } catch (error) {
      fill('health-body', failed('/health', error))
    }
  }

  // Versions: the daemon, the standard, each module's.
  let links = {modules: []}
  let info = null
  function renderVersions() {
    const byId = new Map(links.modules.map((entry) => [entry.id, entry]))
    const modules = [...new Set([...initial.modules, ...byId.keys()])]
    fill(
      'versions-body',
      fields([
        ['daemon', info ? `${info.implementation} ${info.version}` : '—'],
        ['Node.js', info ? info.node : '—'],
        ['standard', initial.standard_installed === null ? 'not installed' : `v${initial.standard_installed}`],
        ['started', info ? when(info.started_at) : '—'],
      ]),
      el('div', {class: 'table-scroll'}, el('table', {class: 'log'}, el('caption', {class: 'visually-hidden'}, 'Module versions'),
        el('thead', {}, el('tr', {}, ['Module', 'repo.version', 'branch', 'deployed version', 'deployed at'].map((label) => el('th', {scope: 'col'}, label)))),
        el('tbody', {}, modules.map((id) => {
          const entry = byId.get(id) ?? {}
          return el('tr', {}, el('td', {}, el('code', {}, id)), el('td', {}, entry.repo?.version ?? '—'), el('td', {}, entry.repo?.branch ?? '—'), el('td', {}, entry.prod?.deployed_version ?? '—'), el('td', {}, entry.prod?.deployed_at ?? '—'))
        })))),
    )
  }
  async function readInfo() {
    try {
      info = await call('GET', '/info')
    } catch {
      info = null
    }
    renderVersions()
  }

  // Links: view and edit.
  async function readLinks() {
    try {
      links = await call('GET', '/links')
      if (!Array.isArray(links.modules)) links.modules = []
    } catch (error) {
      fill('links-body', failed('/links', error))
      return
    }
    const byId = new Map(links.modules.map((entry) => [entry.id, entry]))
    const modules = [...new Set([...initial.modules, ...byId.keys()])]
    fill(
      'links-body',
      el('div', {class: 'table-scroll'}, el('table', {class: 'log', id: 'links-table'}, el('caption', {class: 'visually-hidden'}, 'Links of each module'),
        el('thead', {}, el('tr', {}, ['Module', 'Local', 'Production', 'Repository', ''].map((label) => el('th', {scope: 'col'}, label)))),
        el('tbody', {}, modules.map((id) => {
          const entry = byId.get(id) ?? {}
          return el('tr', {'data-module': id},
            el('td', {}, el('code', {}, id)),
            el('td', {}, address(entry.local?.url), entry.local?.command ? el('div', {class: 'hint'}, el('code', {}, entry.local.command)) : null),
            el('td', {}, address(entry.prod?.url), entry.prod?.provider ? el('div', {class: 'hint'}, `${entry.prod.provider}${entry.prod.region ? ` · ${entry.prod.region}` : ''}`) : null),
            el('td', {}, [entry.repo?.branch, entry.repo?.version, entry.repo?.head_sha?.slice(0, 12)].filter(Boolean).join(' · ') || '—'),
            el('td', {}, initial.modules.includes(id) ? el('button', {type: 'button', class: 'quiet', 'data-edit-links': id, 'aria-label': `Edit the links of ${id}`}, 'Edit') : null),
          )
        })))),
    )
    renderVersions()
  }

  const dialog = $('link-dialog')
  const form = $('link-form')
  let editing = null
  let returnFocus = null
  function openEditor(id, from) {
    editing = id
    returnFocus = from
    const entry = links.modules.find((candidate) => candidate.id === id) ?? {}
    $('link-dialog-title').textContent = `Links of ${id}`
    $('link-notice').replaceChildren()
    for (const input of form.querySelectorAll('input[data-block]')) {
      const value = entry[input.dataset.block]?.[input.dataset.key]
      input.value = typeof value === 'string' ? value : ''
      input.dataset.was = input.value
    }
    dialog.showModal()
    form.querySelector('input').focus()
  }
  document.addEventListener('click', (event) => {
    const edit = event.target.closest?.('[data-edit-links]')
    if (edit) openEditor(edit.dataset.editLinks, edit)
    const closer = event.target.closest?.('[data-close]')
    if (closer) closer.closest('dialog')?.close()
    const refresh = event.target.closest?.('[data-refresh]')
    if (refresh) document.dispatchEvent(new CustomEvent('mesh:refresh', {detail: refresh.dataset.refresh}))
  })
  dialog.addEventListener('close', () => returnFocus?.isConnected && returnFocus.focus())
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const patch = {}
    for (const input of form.querySelectorAll('input[data-block]')) {
      const value = input.value.trim()
      if (value === input.dataset.was) continue
      patch[input.dataset.block] ??= {}
      patch[input.dataset.block][input.dataset.key] = value === '' ? null : value
    }
    if (Object.keys(patch).length === 0) {
      dialog.close()
      return
    }
    try {
      await call('POST', `/links/${encodeURIComponent(editing)}`, patch)
      dialog.close()
      announce(`The links of ${editing} were saved`)
      await readLinks()
    } catch (error) {
      $('link-notice').replaceChildren(el('p', {}, `Not saved: ${error.message} (${error.code})`))
    }
  })

  // Storage.
  async function readStorage() {
    try {
      const usage = await call('GET', '/storage/usage')
      fill(
        'storage-body',
        el('p', {class: 'summary'}, `${bytes(usage.total_bytes)} in ${usage.total_files} files, in the parts of .mesh/ that grow on their own (read ${when(usage.generated_at)})`),
        el('div', {class: 'table-scroll'}, el('table', {class: 'log'}, el('caption', {class: 'visually-hidden'}, 'Storage by part'),
          el('thead', {}, el('tr', {}, ['Part', 'Path', 'Size', 'Files', 'Kept'].map((label) => el('th', {scope: 'col'}, label)))),
          el('tbody', {}, usage.buckets.map((bucket) => el('tr', {},
            el('td', {}, bucket.name), el('td', {}, el('code', {}, bucket.path)), el('td', {class: 'num'}, bytes(bucket.bytes)), el('td', {class: 'num'}, String(bucket.files)),
            el('td', {}, bucket.retention_days ? `${bucket.retention_days} days` : bucket.retention_secs ? `${Math.round(bucket.retention_secs / 60)} minutes` : 'until deleted'),
          ))))),
      )
    } catch (error) {
      fill('storage-body', failed('/storage/usage', error))
    }
  }

  const readers = {health: readHealth, links: readLinks, storage: readStorage}
  document.addEventListener('mesh:refresh', (event) => readers[event.detail]?.())
  const readAll = () => Promise.all([readHealth(), readInfo(), readLinks(), readStorage()])

  let healthTimer
  const soon = (read, delay = 300) => {
    clearTimeout(healthTimer)
    healthTimer = setTimeout(read, delay)
  }
  events({
    onEvent(envelope) {
      const type = envelope.type
      if (type === 'links.updated' || type === 'version.issued') readLinks()
      if (type === 'git.pulled' || type === 'git.committed') lastGit = `${type === 'git.pulled' ? 'Pulled' : 'Committed'} at ${when(envelope.ts)}: ${type === 'git.pulled' ? `${envelope.data.commits} commit(s) from ${envelope.data.upstream}` : envelope.data.subject}`
      if (type === 'state.rebuilt' || type.startsWith('git.') || type === 'cluster.updated' || (type.startsWith('transport.') && type !== 'transport.message')) soon(readHealth)
      if (type === 'snapshot.restored') readStorage()
      document.dispatchEvent(new CustomEvent('mesh:event', {detail: envelope}))
    },
    onOpen(afterGap) {
      if (afterGap) readAll()
      document.dispatchEvent(new CustomEvent('mesh:reopen', {detail: afterGap}))
    },
  })
  readAll().catch((error) => notify(`The project could not be read: ${error.message}`))
})()
