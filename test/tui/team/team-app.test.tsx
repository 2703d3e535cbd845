import {render} from 'ink-testing-library'
import {describe, expect, it, vi} from 'vitest'
import type {MemberSummary} from '../../../src/client/daemon/team-watch.js'
import type {DaemonEventMessage} from '../../../src/protocol/events.js'
import type {TeamAction} from '../../../src/tui/team/state.js'
import {TeamApp, type TeamSource} from '../../../src/tui/team/team-app.js'

function fakeSource() {
  let listener: ((action: TeamAction) => void) | undefined
  const source: TeamSource = {
    subscribe(l) {
      listener = l
      return () => (listener = undefined)
    },
  }
  return {source, push: (...actions: TeamAction[]) => actions.forEach((action) => listener!(action))}
}

const member = (id: string, title: string, problem: string | null = null): MemberSummary => ({id, title, client: 'script', model: id, context: [], exposure: 'internal', path: `.mesh/team/${id}.md`, problem})
const event = (type: string, data: Record<string, unknown>): TeamAction => ({kind: 'event', event: {type, ts: '2026-11-24T12:03:04.000Z', data} as DaemonEventMessage})
const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('the team watch view', () => {
  it('shows the members, the work tree with each turn’s last line, open requests and the latest endings', async () => {
    const {source, push} = fakeSource()
    const view = render(<TeamApp source={source} title="mesh team" onExit={() => {}} />)
    await tick()
    expect(view.lastFrame()).toContain('reading the team…')
    push(
      {kind: 'connection', connected: true},
      {kind: 'snapshot', snapshot: {members: [member('architect', 'Coordinating architect'), member('developer', 'Developer'), member('broken', 'Broken', 'no frontmatter')], convs: [], turns: [], requests: [], queues: []}},
      event('chat.turn.started', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', origin: 'send'}),
      event('delegation.opened', {conv: 'm-developer', request_id: 'dlg_1', member: 'developer', requester: {conv: 'c-1', member: 'architect'}, text: 'architect → developer: build the login'}),
      event('chat.assistant.final', {conv: 'c-1', turn_id: 't-1', member: 'architect', profile: 'architect', status: 'done', text: ''}),
      event('chat.turn.started', {conv: 'm-developer', turn_id: 't-2', member: 'developer', profile: 'developer', origin: 'delegation'}),
      event('chat.assistant.delta', {conv: 'm-developer', turn_id: 't-2', member: 'developer', seq: 0, text: 'writing \x1b[2Jthe form'}),
      event('delegation.refused', {text: 'delegation to tester refused: the chain is too long'}),
    )
    await tick()
    const frame = view.lastFrame()!
    expect(frame).toContain('● live')
    expect(frame).toMatch(/◐ architect\s+waiting\s+Coordinating architect/)
    expect(frame).toMatch(/● developer\s+working\s+Developer/)
    expect(frame).toContain('! no frontmatter')
    expect(frame).toMatch(/architect c-1 ⋯ waiting on 1 request/)
    expect(frame).toMatch(/└ developer m-developer ▶ “writing �\[2Jthe form” · for architect/)
    expect(frame).not.toContain('\x1b[2J')
    expect(frame).toContain('Open requests (1)')
    expect(frame).toContain('dlg_1  architect → developer: build the login  · since 12:03:04')
    expect(frame).toContain('12:03:04  delegation to tester refused: the chain is too long')
    view.unmount()
  })

  it('says when it waits for the daemon and quits on q', async () => {
    const {source, push} = fakeSource()
    const onExit = vi.fn()
    const view = render(<TeamApp source={source} title="mesh team" onExit={onExit} />)
    await tick()
    push({kind: 'connection', connected: false, reason: 'the daemon is not running'})
    await tick()
    expect(view.lastFrame()).toContain('○ the daemon is not running…')
    view.stdin.write('q')
    expect(onExit).toHaveBeenCalled()
    view.unmount()
  })
})
