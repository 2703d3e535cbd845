/**
 * Which session a turn runs in (issue 19, Sessions that survive failure): a
 * session counts once the client confirmed it; a fresh uuid is never handed
 * out twice; a client that could not resume its session loses it.
 */
import {describe, expect, it} from 'vitest'
import {newConversation} from '../../../src/daemon/chat/conversations.js'
import {planSession, settleSession} from '../../../src/daemon/chat/sessions.js'

const resumable = {resume: ['x', '{session}']}
const stateless = {}

describe('client sessions', () => {
  it('starts fresh until the client confirms, then resumes what it confirmed', () => {
    const conv = newConversation('c-1', 'developer', 0)
    const first = planSession(conv, 'codex', resumable)
    expect(first).toEqual({session: conv.session_id, resume: false, note: null})
    settleSession(conv, 'codex', resumable, first, {status: 'done', confirmed: 'thread-9', structured: true})
    expect(conv.session_id).not.toBe(first.session)
    expect(planSession(conv, 'codex', resumable)).toEqual({session: 'thread-9', resume: true, note: null})
  })

  it('after a first turn that died before confirming, hands out a new uuid and says why', () => {
    const conv = newConversation('c-1', 'developer', 0)
    const first = planSession(conv, 'claude', resumable)
    settleSession(conv, 'claude', resumable, first, {status: 'failed', reason: 'killed', confirmed: null, structured: true, why: 'killed by SIGKILL'})
    const next = planSession(conv, 'claude', resumable)
    expect(next.resume).toBe(false)
    expect(next.session).not.toBe(first.session)
    expect(next.note).toBe('the last turn failed before claude confirmed its session (killed by SIGKILL): this turn starts a fresh session')
    settleSession(conv, 'claude', resumable, next, {status: 'done', confirmed: next.session, structured: true})
    expect(conv.session_note).toBeUndefined()
  })

  it('keeps a confirmed session through a failure after the confirmation, and through a stop from outside', () => {
    const conv = newConversation('c-1', 'developer', 0)
    settleSession(conv, 'claude', resumable, planSession(conv, 'claude', resumable), {status: 'failed', reason: 'killed', confirmed: 'S1', structured: true})
    const resumed = planSession(conv, 'claude', resumable)
    expect(resumed).toEqual({session: 'S1', resume: true, note: null})
    settleSession(conv, 'claude', resumable, resumed, {status: 'failed', reason: 'shutdown', confirmed: null, structured: true})
    expect(planSession(conv, 'claude', resumable).resume).toBe(true)
  })

  it('drops a session the client exited on without confirming (it could not resume it), and says the context is gone', () => {
    const conv = {...newConversation('c-1', 'developer', 0), client_session: {client: 'claude', id: 'S1'}}
    const resumed = planSession(conv, 'claude', resumable)
    settleSession(conv, 'claude', resumable, resumed, {status: 'failed', reason: 'exit', confirmed: null, structured: true, why: 'exited with 1: No conversation found with session ID: S1'})
    const next = planSession(conv, 'claude', resumable)
    expect(next.resume).toBe(false)
    expect(next.note).toMatch(/^claude did not resume session S1 \(exited with 1: .*\): this turn starts a fresh session, without the earlier turns' context$/)
  })

  it('takes a text client’s exit 0 as its confirmation, starts fresh when the member’s client changed, and keeps nothing for a client that cannot resume', () => {
    const conv = newConversation('c-1', 'developer', 0)
    const first = planSession(conv, 'mine', resumable)
    settleSession(conv, 'mine', resumable, first, {status: 'done', confirmed: null, structured: false})
    expect(planSession(conv, 'mine', resumable)).toEqual({session: first.session, resume: true, note: null})
    expect(planSession(conv, 'codex', resumable)).toMatchObject({resume: false, note: "the member's client is now codex, not mine: this turn starts a fresh session"})
    const other = newConversation('c-2', 'developer', 0)
    const plan = planSession(other, 'script', stateless)
    settleSession(other, 'script', stateless, plan, {status: 'done', confirmed: 'x', structured: true})
    expect(other.client_session).toBeUndefined()
    expect(other.session_id).not.toBe(plan.session)
  })
})
