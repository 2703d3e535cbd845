// The Team view (docs/ide.md, Team): the roster with each member's live state, the
// architect's panel, the open requests, the conversations, and the chat pane of the one
// shown (its turn stream: team-stream.js; its queue: team-queue.js). State is read from the
// daemon's routes — GET /team, /chat/convs, /chat/delegations, /chat/queues, /architect —
// on every (re)connection of the page's one /events socket and again after each event that
// changes it (meshIde.coalesced: one read at a time, one more if events came during it). The shown
// conversation's thread is read on the same occasions; its events are drawn as they come.
'use strict'
;(() => {
  const {call, el, notify, announce, events, coalesced} = globalThis.meshIde
  const {createStream} = globalThis.meshTeamStream
  const {createQueue} = globalThis.meshTeamQueue

  const enc = encodeURIComponent
  const state = {members: [], convs: [], requests: [], queues: [], architect: null}
  let selected = new URL(location.href).searchParams.get('conv') || null
  /** The member a new conversation goes to, chosen from the roster or the composer. */
  let newMember = null

  const $ = (id) => document.getElementById(id)
  const streamRoot = $('stream')
  const composer = $('composer')
  const composerText = $('composer-text')
  const memberSelect = $('composer-member')

  // The newest turn stays in sight while the reader is at the bottom; scrolling up holds the view.
  let stick = true
  streamRoot.addEventListener('scroll', () => {
    stick = streamRoot.scrollHeight - streamRoot.scrollTop - streamRoot.clientHeight < 60
  })
  let frame = 0
  const keepInSight = () => {
    if (!stick || frame) return
    frame = requestAnimationFrame(() => {
      frame = 0
      streamRoot.scrollTop = streamRoot.scrollHeight
    })
  }

  const stream = createStream(streamRoot, {onStop: stopTurn, onChange: keepInSight})
  const queue = createQueue()

  /** Redraws a list whose buttons carry `data-key`: a keyboard user's focus stays on the same button across the redraw. */
  function replaceKeepingFocus(container, nodes) {
    const key = container.contains(document.activeElement) ? document.activeElement.dataset.key : undefined
    container.replaceChildren(...nodes)
    if (key) container.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus()
  }

  const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`
  const convOf = (conv) => state.convs.find((view) => view.conv === conv)
  const firstLine = (text) => String(text ?? '').split('\n')[0].slice(0, 160)

  /** A member's live state: running, waiting on requests it made, queued (inputs or queue items), else idle; several may hold. */
  function memberStates(id) {
    const convs = state.convs.filter((view) => view.member === id)
    const mine = new Set(convs.map((view) => view.conv))
    const queuedItems = state.queues.filter((file) => mine.has(file.conv) || (!convOf(file.conv) && file.member === id)).reduce((sum, file) => sum + file.items.filter((item) => item.status === 'queued').length, 0)
    const queued = queuedItems + convs.reduce((sum, view) => sum + (view.waiting ?? 0), 0)
    const asking = state.requests.filter((row) => row.requester.member === id).length
    const held = convs.some((view) => view.held === 'budget')
    const states = []
    if (convs.some((view) => view.live)) states.push({kind: 'running', label: 'running'})
    if (asking) states.push({kind: 'waiting', label: `waiting on ${plural(asking, 'request')}`})
    if (queued) states.push({kind: 'queued', label: `${queued} queued`})
    if (held) states.push({kind: 'held', label: 'held: daily budget spent'})
    return states.length ? states : [{kind: 'idle', label: 'idle'}]
  }

  function drawRoster() {
    const rows = state.members.map((member) => {
      const chat = el('button', {type: 'button', class: 'quiet small', 'aria-label': `Chat with ${member.id} (a new conversation)`, 'data-key': `chat:${member.id}`, disabled: member.problem !== null}, 'Chat')
      chat.addEventListener('click', () => {
        newMember = member.id
        memberSelect.value = member.id
        select(null).then(() => composerText.focus())
      })
      return el(
        'tr',
        {'data-member': member.id},
        el('th', {scope: 'row'}, el('span', {class: 'member-id'}, member.id), member.title && member.title !== member.id ? el('span', {class: 'member-title'}, member.title) : null, member.problem ? el('span', {class: 'badge failed'}, `unusable: ${member.problem}`) : null),
        el('td', {class: 'states'}, memberStates(member.id).map((entry) => el('span', {class: `state state-${entry.kind}`}, entry.label))),
        el('td', {}, member.access ?? el('span', {class: 'badge failed', title: 'Its access: entry is refused on this machine'}, 'refused')),
        el('td', {}, el('span', {class: `exposure exposure-${member.exposure}`}, member.exposure)),
        el('td', {class: 'client'}, [member.client, member.model].filter(Boolean).join(' · ') || '—', ' ', chat),
      )
    })
    replaceKeepingFocus($('roster-rows'), rows.length ? rows : [el('tr', {}, el('td', {colspan: 5}, 'No team member: add one with `mesh team add`.'))])
    const current = memberSelect.value
    memberSelect.replaceChildren(...state.members.filter((member) => member.problem === null).map((member) => el('option', {value: member.id}, member.title && member.title !== member.id ? `${member.id} — ${member.title}` : member.id)))
    memberSelect.value = newMember || current || 'architect'
    if (!memberSelect.value && memberSelect.options.length) memberSelect.selectedIndex = 0
  }

  function convState(view) {
    if (!view) return ''
    const items = state.queues.find((file) => file.conv === view.conv)?.items.filter((item) => item.status === 'queued').length ?? 0
    return [view.live ? 'running' : 'idle', view.waiting ? `${view.waiting} waiting` : null, items ? `${items} queued` : null, view.held ? 'held' : null].filter(Boolean).join(' · ')
  }

  function drawConvs() {
    const sorted = [...state.convs].sort((a, b) => Number(b.live) - Number(a.live) || String(b.last_final_at ?? '').localeCompare(String(a.last_final_at ?? '')) || a.conv.localeCompare(b.conv))
    if (selected && !convOf(selected)) sorted.unshift({conv: selected, member: '', live: false, waiting: 0})
    const entry = (conv, label, detail) => {
      const node = el('button', {type: 'button', class: 'conv', 'data-conv': conv ?? '', 'data-key': `conv:${conv ?? ''}`, 'aria-current': conv === selected ? 'true' : null}, el('span', {class: 'conv-id'}, label), detail ? el('span', {class: 'conv-detail'}, detail) : null)
      node.addEventListener('click', () => select(conv))
      return el('li', {}, node)
    }
    replaceKeepingFocus($('conv-list'), [entry(null, 'New conversation', ''), ...sorted.map((view) => entry(view.conv, view.conv, [view.member, convState(view)].filter(Boolean).join(' · ')))])
  }

  function drawChatHead() {
    const view = selected ? convOf(selected) : null
    $('chat-title').textContent = selected ? `${selected}${view?.member ? ` · ${view.member}` : ''}` : 'New conversation'
    $('chat-state').textContent = selected ? convState(view) || 'idle' : 'Pick the member, write, and send: a new conversation opens.'
    $('chat-stop').hidden = !(view?.live && view.turn_id)
    $('composer-member-label').hidden = selected !== null
    $('composer-queue').disabled = selected === null
  }

  function drawRequests() {
    $('requests-count').textContent = String(state.requests.length)
    const rows = state.requests.map((row) => {
      const open = el('button', {type: 'button', class: 'quiet small', 'aria-label': `Open ${row.conv}`, 'data-key': `open:${row.request_id}`}, 'Open')
      open.addEventListener('click', () => select(row.conv))
      const cancel = el('button', {type: 'button', class: 'danger small', 'aria-label': `Cancel request ${row.request_id}`, 'data-key': `cancel:${row.request_id}`}, 'Cancel')
      cancel.addEventListener('click', async () => {
        try {
          await call('DELETE', `/chat/requests/${enc(row.request_id)}`)
          announce(`Request ${row.request_id} cancelled`)
        } catch (error) {
          notify(`The request was not cancelled: ${error.message} (${error.code})`)
        }
        refresh()
      })
      const anchor = [row.anchor?.initiative && `#${row.anchor.initiative}`, row.anchor?.task && `#${row.anchor.task}`].filter(Boolean).join(' · ')
      return el(
        'li',
        {class: 'request', 'data-request': row.request_id},
        el('p', {class: 'text'}, `${row.requester.member} → ${row.member}: ${firstLine(row.brief)}`),
        el('p', {class: 'hint'}, [row.request_id, anchor, `since ${new Date(row.opened_at).toLocaleTimeString()}`].filter(Boolean).join(' · ')),
        el('div', {class: 'buttons'}, open, cancel),
      )
    })
    replaceKeepingFocus($('requests'), rows.length ? rows : [el('li', {class: 'hint'}, 'No request is open.')])
  }

  function drawArchitect() {
    const architect = state.architect
    if (!architect) return
    const {pass, last} = architect
    $('architect-status').textContent = pass
      ? `A pass is running (${pass.pass_id}, ${pass.trigger}): ${plural(pass.dispatchable.length, 'dispatchable task')} handed to it, ${plural(pass.briefs.length, 'brief')} so far.`
      : `${architect.busy ? 'Busy.' : 'Idle.'} ${plural(architect.dispatchable.length, 'dispatchable task')} on the board, ${plural(architect.drafts.length, 'draft')} waiting for you. Automatic passes ${architect.auto ? 'on' : 'off'}.`
    $('architect-last').textContent = last ? `Last pass ${last.pass_id}: ${last.status}${last.decisions ? ` — ${last.decisions}` : ''}` : ''
    // While a pass runs a second run is refused (architect_busy): the button says so by being off.
    $('architect-run').disabled = Boolean(pass)
    $('architect-stop').disabled = !pass
  }

  function drawAll() {
    drawRoster()
    drawConvs()
    drawChatHead()
    drawRequests()
  }

  // Reading the team's state and the architect's again: one read at a time; events during it ask for one more.
  const refresh = coalesced(async () => {
    try {
      const [team, convs, ledger, queues] = await Promise.all([call('GET', '/team'), call('GET', '/chat/convs'), call('GET', '/chat/delegations'), call('GET', '/chat/queues')])
      Object.assign(state, {members: team.members, convs: convs.convs, requests: ledger.open, queues: queues.queues})
      drawAll()
    } catch (error) {
      if (error.code !== 'session_expired') notify(`The team could not be read: ${error.message}`)
    }
  })

  const refreshArchitect = coalesced(async () => {
    try {
      state.architect = await call('GET', '/architect')
      drawArchitect()
    } catch (error) {
      if (error.code !== 'session_expired') $('architect-status').textContent = `The architect could not be read: ${error.message}`
    }
  })

  // The shown conversation: its thread, then the threads of the member sessions answering its briefs.
  let loading = null
  let buffered = []
  async function select(conv) {
    selected = conv
    history.replaceState(null, '', conv ? `?conv=${enc(conv)}` : location.pathname)
    stream.reset(conv)
    stick = true
    drawConvs()
    drawChatHead()
    queue.show(conv)
    if (!conv) {
      loading = null
      return
    }
    const token = {}
    loading = token
    buffered = []
    streamRoot.setAttribute('aria-busy', 'true')
    try {
      const read = async (which) => {
        try {
          return await call('GET', `/chat/conv/${enc(which)}/thread?limit=1000`)
        } catch (error) {
          // A conversation just opened may not be in the timeline yet: its events bring it.
          if (error.code !== 'conv_not_found') notify(`The conversation ${which} could not be read: ${error.message}`)
          return null
        }
      }
      const thread = await read(conv)
      if (loading !== token) return
      for (const entry of thread?.entries ?? []) stream.apply(entry)
      const done = new Set([conv])
      // Briefs nest a few deep at most (the daemon's depth limit is 4).
      for (let depth = 0; depth < 5; depth++) {
        const next = stream.briefConvs().filter((which) => !done.has(which))
        if (next.length === 0) break
        for (const which of next) {
          done.add(which)
          const child = await read(which)
          if (loading !== token) return
          for (const entry of child?.entries ?? []) stream.apply(entry)
        }
      }
    } finally {
      if (loading === token) {
        loading = null
        for (const envelope of buffered) stream.apply(envelope)
        buffered = []
        // Events of it that came before it was shown (the send's answer lags its first events).
        stream.replay(conv)
        streamRoot.setAttribute('aria-busy', 'false')
      }
    }
  }

  async function stopTurn(turnId) {
    try {
      const ended = await call('POST', `/chat/turns/${enc(turnId)}/cancel`)
      announce(`Turn ${ended.turn_id} stopped`)
      notify(null)
    } catch (error) {
      notify(`The turn was not stopped: ${error.message} (${error.code})`)
    }
    refresh()
  }

  $('chat-stop').addEventListener('click', () => {
    const view = convOf(selected)
    if (view?.turn_id) stopTurn(view.turn_id)
  })

  // The composer: Send starts a turn (a new conversation when none is shown); Add to queue lines it up.
  async function send(toQueue) {
    const text = composerText.value
    if (!text.trim()) {
      composerText.focus()
      return
    }
    try {
      if (toQueue) await queue.add(text)
      else {
        const sent = await call('POST', '/chat/send', selected ? {text, conv: selected} : {text, member: memberSelect.value})
        announce(`Sent to ${sent.member}: the turn is ${sent.state}`)
        if (sent.conv !== selected) await select(sent.conv)
      }
      composerText.value = ''
      notify(null)
    } catch (error) {
      const hint = error.code === 'conv_busy' ? ' Use Add to queue: it is sent when the running turn ends.' : ''
      notify(`Not sent: ${error.message} (${error.code}).${hint}`)
    }
    refresh()
  }
  composer.addEventListener('submit', (event) => {
    event.preventDefault()
    send(false)
  })
  $('composer-queue').addEventListener('click', () => send(true))
  composerText.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      send(false)
    }
  })
  memberSelect.addEventListener('change', () => {
    newMember = memberSelect.value
  })

  // The architect: each action is said in the debug stream under the spec's tag first (src: Architect IDE).
  async function architectAction(tag, message, path, done) {
    try {
      await call('POST', '/debug/log', {lvl: 'info', tag, msg: message})
    } catch {
      // The log line is the IDE's record; the action itself still goes to the daemon, which logs its side.
    }
    try {
      await call('POST', path)
      announce(done)
      notify(null)
      return true
    } catch (error) {
      notify(`${done.replace(/\.$/, '')} — refused: ${error.message} (${error.code})`)
      return false
    } finally {
      refreshArchitect()
      refresh()
    }
  }
  $('architect-run').addEventListener('click', async () => {
    if (await architectAction('ux.run-all', 'the operator ran the architect over the board (IDE, Team view)', '/architect/run', 'The architect started a pass.')) select(state.architect?.conv ?? 'arch-pass')
  })
  $('architect-stop').addEventListener('click', () => architectAction('ux.stop-architect', 'the operator stopped the architect (IDE, Team view)', '/architect/stop', 'The architect was stopped.'))

  const REREAD = /^(chat\.(user|turn\.started|assistant\.final|idle|budget\.)|delegation\.|queue\.|team\.)/
  events({
    onEvent(envelope) {
      const {type} = envelope
      const data = envelope.data ?? {}
      if (loading) buffered.push(envelope)
      else stream.apply(envelope)
      if (data.conv === selected && (type.startsWith('queue.') || (type === 'file.changed' && data.path === `.mesh/queues/${selected}.json`))) queue.load()
      if (REREAD.test(type)) refresh()
      if (type.startsWith('architect.') || (data.conv === 'arch-pass' && (type === 'chat.turn.started' || type === 'chat.assistant.final' || type === 'delegation.opened'))) refreshArchitect()
      if (type === 'chat.assistant.final' && data.conv === selected) announce(`${data.profile ?? data.member}'s turn ${data.status === 'done' ? 'is done' : 'failed'}`)
    },
    // Every (re)connection may follow missed events: read everything again, the shown conversation too.
    onOpen() {
      refresh()
      refreshArchitect()
      select(selected)
    },
  })

  globalThis.meshTeam = Object.freeze({refresh, select, state: () => state, running: () => stream.running()})
  // Until the socket opens (and the conversation is read), the head says what is shown.
  drawChatHead()
})()
