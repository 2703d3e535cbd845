/**
 * The work `mesh ask` follows (issue 19, See and stop): from the team's
 * events, the asked turn, the turns answering its delegations nested one
 * level per hand-off — even when a brief's `chat.user` comes before the
 * `delegation.opened` that makes it ours, or its turn starts before that —
 * and nothing of other conversations, up to the asked conversation's idle.
 */
import {describe, expect, it} from 'vitest'
import {createWorkTracker, type WorkUpdate} from '../../../src/client/daemon/work-tracker.js'

let ts = 0
const event = (type: string, data: Record<string, unknown>) => ({type, ts: String(ts++), data})
const started = (turn_id: string, conv: string, member: string) => event('chat.turn.started', {turn_id, conv, member, profile: member, author: 'daemon', text: '', client: 'script', model: member, origin: 'send', resumed: false})
const user = (turn_id: string, conv: string, origin: string, request_ids?: string[]) => event('chat.user', {turn_id, conv, member: 'x', origin, author: 'x', text: '', ...(request_ids ? {request_ids} : {})})
const final = (turn_id: string, conv: string, member: string, extra: Record<string, unknown> = {}) => event('chat.assistant.final', {turn_id, conv, member, profile: member, status: 'done', exit_code: 0, author: member, text: `${member} says`, ...extra})
const opened = (request_id: string, from: string, member: string) => event('delegation.opened', {request_id, conv: `m-${member}`, member, requester: {conv: from, member: 'someone'}, text: `someone → ${member}: do it`, anchor: {}, chain: [], depth: 1, reused: false, author: 'someone'})
const closed = (request_id: string, member: string, outcome = 'success') => event('delegation.closed', {request_id, conv: `m-${member}`, member, outcome, requester: {conv: 'c-1', member: 'architect'}, author: member, text: `${member} answered: ${outcome}`})

function feed(events: ReturnType<typeof event>[]) {
  const tracker = createWorkTracker({conv: 'c-1', turn_id: 't-root'})
  const updates: WorkUpdate[] = []
  for (const item of events) updates.push(...tracker.handle(item))
  return {tracker, updates}
}
const turnsOf = (updates: WorkUpdate[]) => updates.flatMap((update) => (update.kind === 'turn' ? [`${update.turn.depth}:${update.turn.member}:${update.turn.turn_id}`] : []))

describe('the work tracker', () => {
  it('nests delegated turns under their parent and ends at the asked conversation’s idle', () => {
    const {tracker, updates} = feed([
      user('t-root', 'c-1', 'send'),
      started('t-root', 'c-1', 'architect'),
      event('chat.assistant.delta', {turn_id: 't-root', conv: 'c-1', member: 'architect', seq: 0, text: 'handing on', author: 'architect'}),
      final('t-root', 'c-1', 'architect', {usage: {cost_usd: 0.25}}),
      // The brief's chat.user comes before its delegation.opened (delegate.ts submits first).
      user('t-dev', 'm-developer', 'delegation', ['dlg_1']),
      opened('dlg_1', 'c-1', 'developer'),
      // Someone else's turn meanwhile, in another conversation: not ours.
      user('t-other', 'c-2', 'send'),
      started('t-other', 'c-2', 'reviewer'),
      started('t-dev', 'm-developer', 'developer'),
      event('chat.tool', {turn_id: 't-dev', conv: 'm-developer', member: 'developer', seq: 0, tool_use_id: 'u1', tool: 'Edit', summary: 'src/a.ts', status: 'started', author: 'developer', text: 'Edit src/a.ts'}),
      // The developer hands on in turn; the tester's turn starts before the opened event arrives.
      final('t-dev', 'm-developer', 'developer'),
      user('t-test', 'm-tester', 'delegation', ['dlg_2']),
      started('t-test', 'm-tester', 'tester'),
      opened('dlg_2', 'm-developer', 'tester'),
      final('t-test', 'm-tester', 'tester', {usage: {cost_usd: 0.5}}),
      closed('dlg_2', 'tester'),
      user('t-wake', 'm-developer', 'wake', ['dlg_1']),
      started('t-wake', 'm-developer', 'developer'),
      final('t-wake', 'm-developer', 'developer'),
      closed('dlg_1', 'developer'),
      event('chat.idle', {conv: 'm-developer', member: 'developer'}),
      user('t-back', 'c-1', 'wake'),
      started('t-back', 'c-1', 'architect'),
      final('t-back', 'c-1', 'architect'),
    ])
    expect(turnsOf(updates)).toEqual(['0:architect:t-root', '1:developer:t-dev', '2:tester:t-test', '1:developer:t-wake', '0:architect:t-back'])
    expect(updates.filter((update) => update.kind === 'tool')).toHaveLength(1)
    expect(updates.filter((update) => update.kind === 'delegated').map((update) => update.kind === 'delegated' && update.request.depth)).toEqual([1, 2])
    expect(tracker.done).toBe(false)
    expect(tracker.handle(event('chat.idle', {conv: 'c-1', member: 'architect'}))).toEqual([{kind: 'idle'}])
    expect(tracker.done).toBe(true)
    const summary = tracker.summary()
    expect(summary.cost_usd).toBe(0.75)
    expect(summary.requests.map((request) => `${request.member}:${request.outcome}`)).toEqual(['developer:success', 'tester:success'])
  })

  it('leaves a lone operator input in a session to itself: the brief waits for the turn after it', () => {
    const {updates} = feed([
      started('t-root', 'c-1', 'architect'),
      final('t-root', 'c-1', 'architect'),
      user('t-queued', 'm-developer', 'queue'),
      user('t-dev', 'm-developer', 'delegation', ['dlg_1']),
      opened('dlg_1', 'c-1', 'developer'),
      started('t-queued', 'm-developer', 'developer'),
      final('t-queued', 'm-developer', 'developer'),
      started('t-dev', 'm-developer', 'developer'),
    ])
    expect(turnsOf(updates)).toEqual(['0:architect:t-root', '1:developer:t-dev'])
  })

  it('tells refusals of the asked conversation and ignores an idle before the first final', () => {
    const {tracker, updates} = feed([
      started('t-root', 'c-1', 'architect'),
      event('chat.idle', {conv: 'c-1', member: 'architect'}),
      final('t-root', 'c-1', 'architect', {status: 'failed', reason: 'exit'}),
      event('delegation.refused', {from_conv: 'c-1', from_member: 'architect', member: 'ghost', code: 'member_not_found', text: 'delegation to ghost refused', chain: [], author: 'architect'}),
      event('delegation.refused', {from_conv: 'c-9', from_member: 'other', member: 'ghost', code: 'member_not_found', text: 'not ours', chain: [], author: 'other'}),
    ])
    expect(tracker.done).toBe(false)
    expect(updates.filter((update) => update.kind === 'refused')).toEqual([{kind: 'refused', depth: 0, from: 'architect', member: 'ghost', code: 'member_not_found', text: 'delegation to ghost refused'}])
    expect(tracker.summary().turns).toEqual([expect.objectContaining({turn_id: 't-root', status: 'failed', reason: 'exit'})])
  })
})
