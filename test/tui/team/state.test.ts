import {describe, expect, it} from 'vitest'
import type {LedgerRow, MemberSummary, TeamSnapshot} from '../../../src/client/daemon/team-watch.js'
import type {DaemonEventMessage} from '../../../src/protocol/events.js'
import type {QueueItem} from '../../../src/protocol/queue.js'
import {initialTeamState, memberStatus, NOTICES_KEPT, teamReducer, workTree, type TeamAction, type TeamState} from '../../../src/tui/team/state.js'

const member = (id: string, title = id): MemberSummary => ({id, title, client: 'script', model: id, context: [], exposure: 'internal', path: `.mesh/team/${id}.md`, problem: null})
const TS = '2026-11-24T12:00:00.000Z'
const event = (type: string, data: Record<string, unknown>, ts = TS): TeamAction => ({kind: 'event', event: {type, ts, data} as DaemonEventMessage})
const row = (request_id: string, member: string, requester: {conv: string | null; member: string}, brief = 'do it'): LedgerRow => ({
  request_id,
  conv: `m-${member}`,
  member,
  requester,
  anchor: {},
  chain: requester.conv ? [requester.member] : [],
  brief,
  opened_at: TS,
  status: 'open',
})
const item = (id: string, position: number, text = `item ${id}`, status: QueueItem['status'] = 'queued'): QueueItem => ({id, text, created_at: TS, position, status})

const emptySnapshot = (over: Partial<TeamSnapshot> = {}): TeamSnapshot => ({members: [member('architect'), member('developer')], convs: [], turns: [], requests: [], queues: [], ...over})
const fold = (actions: TeamAction[], state: TeamState = initialTeamState()) => actions.reduce(teamReducer, state)

describe('the team watch state', () => {
  it('starts from a snapshot: members sorted, live turns with their profile, open requests and queues', () => {
    const state = fold([
      {
        kind: 'snapshot',
        snapshot: emptySnapshot({
          members: [member('developer'), member('architect', 'Coordinating architect')],
          convs: [
            {conv: 'c-1', member: 'architect', session_id: 's', live: true, waiting: 0, turns: 3, turn_id: 't-1', last_final_at: null},
            {conv: 'c-idle', member: 'architect', session_id: 's', live: false, waiting: 0, turns: 1, turn_id: null, last_final_at: TS},
          ],
          turns: [{turn_id: 't-1', conv: 'c-1', member: 'architect', profile: 'consultant', status: 'running', started_at: TS}],
          requests: [row('dlg_1', 'developer', {conv: 'c-1', member: 'architect'}, 'Build the login\nwith tests')],
          queues: [{conv: 'c-1', version: 4, state: 'active', items: [item('q-1', 0, 'next please')]}],
        }),
      },
    ])
    expect(state.ready).toBe(true)
    expect(state.members.map((m) => m.id)).toEqual(['architect', 'developer'])
    expect(state.convs['c-1'].turn).toMatchObject({turn_id: 't-1', profile: 'consultant', started_at: TS})
    expect(state.convs['c-idle'].turn).toBeNull()
    expect(state.convs['m-developer']).toMatchObject({member: 'developer', turn: null})
    expect(state.requests).toEqual([{request_id: 'dlg_1', conv: 'm-developer', member: 'developer', requester: {conv: 'c-1', member: 'architect'}, summary: 'architect → developer: Build the login', opened_at: TS}])
    expect(state.queues['c-1'].version).toBe(4)
  })

  it('follows a turn: started, its last line worth showing (markers and blanks skipped), final', () => {
    let state = fold([{kind: 'snapshot', snapshot: emptySnapshot()}, event('chat.turn.started', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', origin: 'send', author: 'daemon', text: ''})])
    expect(memberStatus(state, 'architect')).toBe('working')
    const delta = (seq: number, text: string) => event('chat.assistant.delta', {conv: 'c-1', turn_id: 't-1', member: 'architect', author: 'architect', seq, text})
    state = fold([delta(0, 'reading the code'), delta(1, ''), delta(2, '```mesh-report'), delta(3, '{"status": "done"}'), delta(4, '```')], state)
    expect(state.convs['c-1'].turn?.last_line).toBe('reading the code')
    state = fold([delta(5, 'all done')], state)
    expect(state.convs['c-1'].turn?.last_line).toBe('all done')
    state = fold([event('chat.assistant.final', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', status: 'done', exit_code: 0, text: 'all done', author: 'architect'})], state)
    expect(state.convs['c-1']).toMatchObject({turn: null, last: {turn_id: 't-1', status: 'done'}})
    expect(memberStatus(state, 'architect')).toBe('idle')
    // A delta of the finished turn read again (the snapshot overlap) does not bring it back.
    expect(fold([delta(5, 'all done')], state).convs['c-1'].turn).toBeNull()
    expect(state.notices).toEqual([])
  })

  it('takes a turn it never saw start from its first delta, and notes failed turns', () => {
    const state = fold([
      {kind: 'snapshot', snapshot: emptySnapshot()},
      event('chat.assistant.delta', {conv: 'm-developer', turn_id: 't-9', member: 'developer', author: 'developer', seq: 7, text: 'compiling'}),
    ])
    expect(state.convs['m-developer'].turn).toMatchObject({turn_id: 't-9', profile: 'developer', last_line: 'compiling'})
    const failed = fold([event('chat.assistant.final', {conv: 'm-developer', turn_id: 't-9', member: 'developer', profile: 'developer', status: 'failed', reason: 'timeout', exit_code: null, text: '', author: 'developer'})], state)
    expect(failed.convs['m-developer'].turn).toBeNull()
    expect(failed.notices).toEqual([{ts: TS, text: "developer's turn in m-developer failed (timeout)"}])
  })

  it('nests a member session under the conv whose request it works on, deepest last', () => {
    const requester = {conv: 'c-1', member: 'architect'}
    const state = fold([
      {kind: 'snapshot', snapshot: emptySnapshot({members: [member('architect'), member('developer'), member('tester')]})},
      event('chat.turn.started', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', origin: 'send'}),
      event('delegation.opened', {conv: 'm-developer', request_id: 'dlg_1', member: 'developer', requester, anchor: {}, chain: ['architect'], depth: 1, reused: false, author: 'architect', text: 'architect → developer: build it'}),
      event('delegation.opened', {conv: 'm-tester', request_id: 'dlg_2', member: 'tester', requester: {conv: 'm-developer', member: 'developer'}, anchor: {}, chain: ['architect', 'developer'], depth: 2, reused: false, author: 'developer', text: 'developer → tester: test it'}),
      event('chat.assistant.final', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', status: 'done', exit_code: 0, text: ''}),
      event('chat.turn.started', {conv: 'm-tester', turn_id: 't-3', member: 'tester', profile: 'tester', origin: 'delegation'}),
    ])
    const tree = workTree(state)
    expect(tree.map((node) => node.conv)).toEqual(['c-1'])
    expect(tree[0]).toMatchObject({waiting_on: 1, turn: null})
    expect(tree[0].children.map((node) => node.conv)).toEqual(['m-developer'])
    expect(tree[0].children[0]).toMatchObject({member: 'developer', waiting_on: 1, owes: [{request_id: 'dlg_1'}]})
    expect(tree[0].children[0].children.map((node) => [node.conv, node.turn?.turn_id])).toEqual([['m-tester', 't-3']])
    expect(memberStatus(state, 'architect')).toBe('waiting')
    expect(memberStatus(state, 'tester')).toBe('working')

    // The reports close the requests: nothing is at work any more.
    const closed = fold(
      [
        event('chat.assistant.final', {conv: 'm-tester', turn_id: 't-3', member: 'tester', profile: 'tester', status: 'done', exit_code: 0, text: ''}),
        event('delegation.closed', {conv: 'm-tester', request_id: 'dlg_2', outcome: 'success', member: 'tester', requester: {conv: 'm-developer', member: 'developer'}, author: 'tester', text: 'tester answered developer: success'}),
        event('delegation.closed', {conv: 'm-developer', request_id: 'dlg_1', outcome: 'success', member: 'developer', requester, author: 'developer', text: 'developer answered architect: success'}),
      ],
      state,
    )
    expect(closed.requests).toEqual([])
    expect(workTree(closed)).toEqual([])
    expect(closed.notices.map((notice) => notice.text)).toEqual(['tester answered developer: success', 'developer answered architect: success'])
  })

  it('puts requests from the operator at the root, and skips a request it already holds', () => {
    const opened = event('delegation.opened', {conv: 'm-developer', request_id: 'dlg_1', member: 'developer', requester: {conv: null, member: 'operator'}, anchor: {}, chain: [], depth: 0, reused: false, text: 'operator → developer: x'})
    const state = fold([{kind: 'snapshot', snapshot: emptySnapshot({requests: [row('dlg_1', 'developer', {conv: null, member: 'operator'})]})}, opened])
    expect(state.requests).toHaveLength(1)
    expect(workTree(state).map((node) => [node.conv, node.children.length])).toEqual([['m-developer', 0]])
  })

  it('keeps queues by version: adds, moves, sends and removes items, and skips events the snapshot holds', () => {
    const queueEvent = (type: string, version: number, queued: QueueItem) => event(`queue.item.${type}`, {conv: 'c-1', version, item: queued})
    let state = fold([{kind: 'snapshot', snapshot: emptySnapshot({queues: [{conv: 'c-1', version: 2, state: 'active', items: [item('q-a', 0), item('q-b', 1)]}]})}])
    state = fold([queueEvent('added', 2, item('q-b', 1)), queueEvent('added', 3, item('q-c', 2, 'third'))], state)
    expect(state.queues['c-1'].items.map((i) => i.id)).toEqual(['q-a', 'q-b', 'q-c'])
    state = fold([queueEvent('updated', 4, item('q-c', 0, 'third, first now'))], state)
    expect(state.queues['c-1'].items.map((i) => i.id)).toEqual(['q-c', 'q-a', 'q-b'])
    state = fold([queueEvent('updated', 5, item('q-c', 0, 'third', 'sending')), queueEvent('sent', 6, item('q-c', 0, 'third', 'sent')), queueEvent('removed', 7, item('q-a', 0, 'x', 'cancelled'))], state)
    expect(state.queues['c-1']).toMatchObject({version: 7, items: [{id: 'q-b'}]})
    const tree = workTree(fold([event('chat.user', {conv: 'c-1', turn_id: 't-1', member: 'architect', origin: 'send', author: 'operator', text: 'x'})], state))
    expect(tree).toMatchObject([{conv: 'c-1', queued: 1, next: 'item q-b'}])
    state = fold([queueEvent('updated', 8, item('q-b', 0, 'x', 'failed'))], state)
    expect(workTree(state)).toMatchObject([{conv: 'c-1', queued: 0, failed: 1, next: null}])
    state = fold([queueEvent('removed', 9, item('q-b', 0, 'x', 'cancelled'))], state)
    expect(state.queues['c-1']).toEqual({conv: 'c-1', version: 9, items: []})
    expect(workTree(state)).toEqual([])
    // Emptied, it keeps its version: an older event read again brings nothing back.
    expect(fold([queueEvent('added', 3, item('q-c', 2, 'third'))], state).queues['c-1'].items).toEqual([])
  })

  it('takes a queue read again after its file changed on disk as it is, even at a lower version (a restore)', () => {
    let state = fold([{kind: 'snapshot', snapshot: emptySnapshot({queues: [{conv: 'c-1', version: 9, state: 'active', items: [item('q-a', 0)]}]})}])
    // A restore brought back the file of version 4, with two items; an idle conv's queue appears in the tree.
    state = fold([{kind: 'queue', queue: {conv: 'c-1', version: 4, state: 'active', member: 'architect', items: [item('q-x', 0, 'restored'), item('q-y', 1)]}}], state)
    expect(state.queues['c-1']).toEqual({conv: 'c-1', version: 4, items: [item('q-x', 0, 'restored'), item('q-y', 1)]})
    expect(workTree(state)).toMatchObject([{conv: 'c-1', member: 'architect', queued: 2, next: 'restored'}])
    // The daemon's next write goes on from the restored version.
    state = fold([event('queue.item.removed', {conv: 'c-1', version: 5, item: item('q-x', 0, 'restored', 'cancelled')})], state)
    expect(state.queues['c-1'].items.map((i) => i.id)).toEqual(['q-y'])
    // Deleted by hand: read again, it is empty.
    state = fold([{kind: 'queue', queue: {conv: 'c-1', version: 0, state: 'active', items: []}}], state)
    expect(workTree(state)).toEqual([])
  })

  it('shows a queue paused after a failed turn until it is resumed (issue 19)', () => {
    const paused = {reason: 'turn t-1 of architect failed (exit)', turn_id: 't-1', at: TS}
    let state = fold([{kind: 'snapshot', snapshot: emptySnapshot({queues: [{conv: 'c-1', version: 3, state: 'paused', paused, member: 'architect', items: [item('q-a', 0)]}]})}])
    expect(workTree(state)).toMatchObject([{conv: 'c-1', queued: 1, paused: paused.reason}])
    state = fold([event('queue.resumed', {conv: 'c-1', version: 4, queued: 1})], state)
    expect(workTree(state)).toMatchObject([{conv: 'c-1', queued: 1, paused: null}])
    state = fold([event('queue.paused', {conv: 'c-1', version: 5, paused: {...paused, reason: 'again'}})], state)
    expect(workTree(state)).toMatchObject([{paused: 'again'}])
    expect(state.notices.at(-1)?.text).toBe('the queue of c-1 is paused')
    // An older pause read again changes nothing.
    expect(fold([event('queue.resumed', {conv: 'c-1', version: 4, queued: 1})], state).queues['c-1'].paused).toBe('again')
  })

  it('follows the roster: created and deleted members, then the roster read again', () => {
    let state = fold([{kind: 'snapshot', snapshot: emptySnapshot()}, event('team.created', {id: 'reviewer'}), event('team.created', {id: 'reviewer'})])
    expect(state.members.map((m) => [m.id, m.title])).toEqual([
      ['architect', 'architect'],
      ['developer', 'developer'],
      ['reviewer', null],
    ])
    state = fold([event('team.deleted', {id: 'developer'}), {kind: 'members', members: [member('reviewer', 'Code reviewer'), member('architect')]}], state)
    expect(state.members.map((m) => [m.id, m.title])).toEqual([
      ['architect', 'architect'],
      ['reviewer', 'Code reviewer'],
    ])
  })

  it('keeps the newest notices only, and the connection state with its reason', () => {
    const actions = Array.from({length: NOTICES_KEPT + 3}, (_, i) => event('task.completed', {task: `T${i}`, conv: 'c-1', member: 'developer'}))
    const state = fold([...actions, {kind: 'connection', connected: false, reason: 'the daemon is not running'}])
    expect(state.notices).toHaveLength(NOTICES_KEPT)
    expect(state.notices.at(-1)?.text).toBe(`developer completed #T${NOTICES_KEPT + 2}`)
    expect(state).toMatchObject({connected: false, reason: 'the daemon is not running'})
    expect(fold([{kind: 'connection', connected: true}], state)).toMatchObject({connected: true, reason: null})
  })

  it('ignores events it does not know, returning the same state', () => {
    const state = fold([{kind: 'snapshot', snapshot: emptySnapshot()}])
    expect(teamReducer(state, event('file.changed', {path: 'x'}))).toBe(state)
  })
})
