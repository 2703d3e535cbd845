// The Team view's turn stream (docs/ide.md, Team): one conversation's turns drawn from its
// thread (GET /chat/conv/<conv>/thread) and then from /events — each turn's inputs, its tool
// steps, its text line by line, its final with status and cost, and under it the briefs it
// handed on, each with the turns that answer it (nested, to any depth), and the refusals.
// Thread entries and events go through the same apply(), which is idempotent: an event the
// thread already held changes nothing. Every agent value is a text node (meshIde.el), never
// markup or a link, so script tags and `javascript:` stay text; bidi controls are dropped.
'use strict'
;(() => {
  const {el} = globalThis.meshIde

  /** A thread entry `{type, ts, author, text, ...fields}` or an event envelope (exactly `{type, ts, data}`), as one shape. */
  const isEnvelope = (item) => Object.keys(item).length === 3 && item.data !== null && typeof item.data === 'object' && !Array.isArray(item.data)
  const flat = (item) => (isEnvelope(item) ? {type: item.type, ts: item.ts, ...item.data} : item)

  /** How many conversations' early turn entries are kept, and how many entries each. */
  const ORPHAN_CONVS = 16
  const ORPHAN_ENTRIES = 400

  const money = (usd) => (typeof usd === 'number' ? `$${usd.toFixed(usd >= 1 ? 2 : 4)}` : null)

  /** The final's line: status, why, and what it used — cost first, since that is what the operator watches. */
  function finalLine(entry) {
    const usage = entry.usage ?? {}
    const cost = money(usage.cost_usd)
    const parts = [
      entry.status === 'done' ? 'done' : `failed (${entry.reason ?? 'unknown'})`,
      cost ? `cost ${cost}` : entry.usage ? 'cost not reported' : null,
      typeof usage.input_tokens === 'number' || typeof usage.output_tokens === 'number' ? `${usage.input_tokens ?? '?'} in / ${usage.output_tokens ?? '?'} out tokens` : null,
      typeof usage.tool_calls === 'number' && usage.tool_calls > 0 ? `${usage.tool_calls} tool ${usage.tool_calls === 1 ? 'call' : 'calls'}` : null,
      typeof usage.duration_ms === 'number' ? `${(usage.duration_ms / 1000).toFixed(1)} s` : null,
    ]
    return parts.filter(Boolean).join(' · ')
  }

  /** Long inputs (briefs, wakes) fold: their first line shows, the rest on demand. */
  function foldedText(text) {
    const value = String(text ?? '')
    if (value.length <= 400 && value.split('\n').length <= 6) return el('p', {class: 'text'}, value)
    return el('details', {class: 'text'}, el('summary', {}, value.split('\n')[0].slice(0, 200) || '(blank first line)'), el('p', {class: 'text'}, value))
  }

  /**
   * A stream drawn into `root`. `onStop(turnId)` is called by a turn's Stop button;
   * `onChange()` after each change (the view keeps the newest in sight).
   */
  function createStream(root, {onStop, onChange}) {
    let shown = null
    let turns = new Map()
    let delegations = new Map()
    /** conv → its newest turn on screen: where a brief or refusal of that conv goes. */
    let lastTurn = new Map()
    let seen = new Set()
    /** conv → turn entries of a conversation not on screen (yet): a brief's answering turn may start before the brief is announced. */
    let orphans = new Map()

    function keepOrphan(entry) {
      if (!orphans.has(entry.conv)) {
        // A few conversations' worth: the oldest is forgotten first.
        if (orphans.size >= ORPHAN_CONVS) orphans.delete(orphans.keys().next().value)
        orphans.set(entry.conv, [])
      }
      const kept = orphans.get(entry.conv)
      kept.push(entry)
      if (kept.length > ORPHAN_ENTRIES) kept.splice(0, kept.length - ORPHAN_ENTRIES)
    }

    function reset(conv) {
      shown = conv
      turns = new Map()
      delegations = new Map()
      lastTurn = new Map()
      seen = new Set()
      // Orphans stay: events that came while the page switched conversations are drawn once their turn is placed.
      root.replaceChildren()
    }

    function newTurn(entry, parent) {
      const stop = el('button', {type: 'button', class: 'danger stop', 'data-stop': entry.turn_id}, 'Stop')
      stop.addEventListener('click', () => onStop(entry.turn_id))
      const view = {
        turn_id: entry.turn_id,
        conv: entry.conv,
        who: el('span', {class: 'who'}, entry.member ?? entry.conv),
        meta: el('span', {class: 'meta'}),
        state: el('span', {class: 'state'}, 'waiting'),
        stop,
        inputs: el('div', {class: 'inputs'}),
        tools: el('ol', {class: 'tools', 'aria-label': 'Tool activity'}),
        out: el('div', {class: 'out'}),
        final: el('p', {class: 'final'}),
        nested: el('div', {class: 'nested'}),
        toolRows: new Map(),
        /** The `seq` of each delta drawn, and how many lines a thread's `printed` drew before them. */
        seqs: new Set(),
        printedLines: 0,
        ended: false,
      }
      view.node = el(
        'article',
        {class: 'turn', 'data-turn': entry.turn_id, 'data-conv': entry.conv, 'data-status': 'waiting', 'aria-label': `Turn ${entry.turn_id} of ${entry.member ?? entry.conv}`},
        el('header', {class: 'turn-head'}, view.who, view.meta, view.state, stop),
        view.inputs,
        view.tools,
        view.out,
        view.final,
        view.nested,
      )
      parent.append(view.node)
      turns.set(entry.turn_id, view)
      lastTurn.set(entry.conv, view)
      return view
    }

    /** The turn an entry belongs to: known, or new when it is this conversation's or answers a brief on screen. */
    function turnFor(entry) {
      if (typeof entry.turn_id !== 'string') return null
      const known = turns.get(entry.turn_id)
      if (known) return known
      if (entry.type === 'chat.user' && Array.isArray(entry.request_ids)) {
        const brief = entry.request_ids.map((id) => delegations.get(id)).find(Boolean)
        if (brief) return newTurn(entry, brief.children)
      }
      return entry.conv === shown ? newTurn(entry, root) : null
    }

    function setStatus(view, status, label = status) {
      view.node.dataset.status = status
      view.state.textContent = label
      view.stop.hidden = status === 'done' || status === 'failed'
    }

    /** Where a brief or a note of `conv` goes: under its newest turn on screen, or the stream itself for the conversation shown. */
    const placeFor = (conv) => lastTurn.get(conv)?.nested ?? (conv === shown ? root : null)

    function once(key) {
      if (seen.has(key)) return false
      seen.add(key)
      return true
    }

    function note(conv, text, kind = 'note') {
      const place = placeFor(conv)
      if (place && once(`note|${conv}|${kind}|${text}`)) place.append(el('p', {class: kind, role: kind === 'refusal' ? 'note' : null}, text))
    }

    const handlers = {
      'chat.user'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        if (!once(`user|${entry.turn_id}|${(entry.request_ids ?? []).join(',')}|${entry.origin}|${String(entry.text).length}`)) return
        view.inputs.append(el('div', {class: `input origin-${entry.origin ?? 'send'}`}, el('span', {class: 'from'}, `${entry.author ?? 'operator'}${entry.origin && entry.origin !== 'send' ? ` (${entry.origin})` : ''}`), foldedText(entry.text)))
      },
      'chat.turn.started'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        view.who.textContent = entry.profile ?? entry.member
        view.meta.textContent = [entry.client, entry.model, entry.access && `access ${entry.access}`].filter(Boolean).join(' · ')
        if (!view.ended) setStatus(view, 'running')
      },
      'chat.assistant.delta'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        // A line drawn already, or one the thread's `printed` held (deltas count a turn's lines from 0), is not drawn again.
        if (view.ended || view.seqs.has(entry.seq) || entry.seq < view.printedLines) return
        view.seqs.add(entry.seq)
        if (view.node.dataset.status === 'waiting') setStatus(view, 'running')
        view.out.append(`${entry.text}\n`)
      },
      // A running or text-less turn's output, as the thread keeps it.
      'chat.assistant.printed'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        if (view.ended || !entry.text) return
        view.out.replaceChildren(entry.text)
        view.printedLines = entry.text.replace(/\n$/, '').split('\n').length
      },
      'chat.tool'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        const key = entry.tool_use_id ?? `seq-${entry.seq}`
        let row = view.toolRows.get(key)
        if (!row) {
          row = el('li', {class: 'tool'})
          view.toolRows.set(key, row)
          view.tools.append(row)
        }
        row.dataset.status = entry.status
        const label = el('span', {class: 'tool-status'}, entry.status)
        const parts = [el('code', {}, entry.tool ?? 'tool'), ' ', el('span', {class: 'summary'}, entry.summary ?? ''), ' ', label]
        if (entry.output) parts.push(el('details', {}, el('summary', {}, 'output'), el('pre', {}, entry.output)))
        row.replaceChildren(...parts)
      },
      'chat.assistant.final'(entry) {
        const view = turnFor(entry)
        if (!view) return false
        view.ended = true
        setStatus(view, entry.status, entry.status === 'done' ? 'done' : 'failed')
        if (entry.text) view.out.replaceChildren(entry.text)
        else if (entry.printed) view.out.replaceChildren(entry.printed)
        const line = [finalLine(entry), entry.detail ? `— ${entry.detail}` : null].filter(Boolean).join(' ')
        view.final.replaceChildren(el('span', {class: 'final-label'}, 'Final'), ' ', line)
      },
      'delegation.opened'(entry) {
        if (delegations.has(entry.request_id)) return
        const place = placeFor(entry.requester?.conv)
        if (!place) return
        const status = el('span', {class: 'badge open'}, 'open')
        const outcome = el('p', {class: 'outcome'})
        const view = {
          conv: entry.conv,
          status,
          outcome,
          children: el('div', {class: 'children'}),
        }
        view.node = el(
          'section',
          {class: 'delegation', 'data-request': entry.request_id, 'data-member': entry.member, 'data-status': 'open', 'aria-label': `Brief ${entry.request_id} to ${entry.member}`},
          el('p', {class: 'deleg-head'}, el('span', {class: 'arrow', 'aria-hidden': 'true'}, '↳ '), `brief to ${entry.member}`, ' ', el('code', {}, entry.request_id), ' ', status),
          foldedText(entry.brief ?? entry.text),
          view.children,
          outcome,
        )
        place.append(view.node)
        delegations.set(entry.request_id, view)
        // The engine takes a brief (its `chat.user`, maybe its start) before the brief is announced: what came early goes in now.
        replay(entry.conv)
      },
      'delegation.closed'(entry) {
        const view = delegations.get(entry.request_id)
        if (!view) return
        view.node.dataset.status = 'closed'
        view.status.className = `badge ${entry.outcome === 'success' ? 'done' : 'failed'}`
        view.status.textContent = entry.outcome
        view.outcome.textContent = [entry.text, entry.reason].filter(Boolean).join(' — ')
      },
      'delegation.resent'(entry) {
        const view = delegations.get(entry.request_id)
        if (view && once(`resent|${entry.request_id}|${entry.turn_id}`)) view.children.append(el('p', {class: 'note'}, entry.text))
      },
      'delegation.refused'(entry) {
        note(entry.from_conv, `Refused (${entry.code}): ${entry.text}`, 'refusal')
      },
      'chat.become'(entry) {
        note(entry.conv, entry.text)
      },
      'chat.session'(entry) {
        note(entry.conv, entry.text)
      },
      'task.completed'(entry) {
        note(entry.conv, entry.text)
      },
      'architect.pass.started'(entry) {
        note(entry.conv, entry.text)
      },
      'architect.pass.ended'(entry) {
        note(entry.conv, entry.text)
      },
    }

    /** Applies the kept early entries of a conversation (its thread was just drawn, or a brief of it announced). */
    function replay(conv) {
      const early = orphans.get(conv) ?? []
      orphans.delete(conv)
      for (const item of early) apply(item)
    }

    /** Applies a thread entry or an event. */
    function apply(item) {
      const entry = flat(item)
      const handler = handlers[entry.type]
      if (!handler) return
      if (handler(entry) === false) {
        if (typeof entry.turn_id === 'string' && typeof entry.conv === 'string' && entry.conv !== shown) keepOrphan(entry)
        return
      }
      onChange?.()
    }

    /** The conversations of the briefs on screen whose own threads have not been read yet (their answering turns). */
    const briefConvs = () => [...new Set([...delegations.values()].map((view) => view.conv))]

    /** The running or waiting turns on screen (the Stop buttons a test or a keyboard user reaches). */
    const running = () => [...turns.values()].filter((view) => !view.ended).map((view) => view.turn_id)

    return {reset, apply, replay, briefConvs, running, shown: () => shown}
  }

  globalThis.meshTeamStream = Object.freeze({createStream})
})()
