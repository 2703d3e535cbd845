import {afterEach, describe, expect, it} from 'vitest'
import {delegate} from '../../../../src/daemon/chat/delegation/delegate.js'
import {isMeshError} from '../../../../src/lib/errors.js'
import {delegateMarker, report} from '../fake-engine.js'
import {setupDelegation, type DelegationSetup} from './setup.js'

let setup: DelegationSetup | undefined
afterEach(async () => {
  await setup?.close()
  setup = undefined
})

const CHAT = 'c-0123456789ab'

/** The operator talks to the architect in CHAT; the architect's turn ends with `markers`. */
async function architectTurn(s: DelegationSetup, markers: Parameters<DelegationSetup['engine']['finish']>[1] = {}) {
  await s.engine.submit({conv: CHAT, member: 'architect', text: 'Plan the login', author: 'operator', origin: 'send'})
  return s.engine.finish(CHAT, markers)
}

const lastSubmit = (s: DelegationSetup) => s.engine.submitted.at(-1)!

describe('delegation hook: briefs', () => {
  it('hands a mesh-delegate brief to the member session, opens a row and says so', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build the login route', task: 'API1', initiative: 'launch'})]})
    const [row] = setup.delegation.ledger.openRequestsOf('m-developer')
    expect(row).toMatchObject({member: 'developer', requester: {conv: CHAT, member: 'architect'}, chain: ['architect'], anchor: {task: 'API1', initiative: 'launch'}})
    expect(lastSubmit(setup)).toMatchObject({conv: 'm-developer', member: 'developer', author: 'architect', origin: 'delegation', merge: true, request_ids: [row.request_id], anchor: {task: 'API1', initiative: 'launch'}})
    expect(lastSubmit(setup).text).toContain(`Delegation ${row.request_id} from architect`)
    expect(lastSubmit(setup).text).toContain('Build the login route')
    expect(setup.seen('delegation.opened')).toEqual([expect.objectContaining({request_id: row.request_id, member: 'developer', conv: 'm-developer', requester: {conv: CHAT, member: 'architect'}, depth: 1, reused: false, chain: ['architect']})])
    // The architect now waits on the developer: coordinating, so not idle for the queue.
    expect(setup.engine.coordinating(CHAT)).toBe(true)
    expect(setup.engine.idled).not.toContain(CHAT)
  })

  it("anchors a brief to the turn's anchor when the marker names none", async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {anchor: {initiative: 'launch', task: 'API1'}, markers: [delegateMarker({member: 'developer', brief: 'Go'})]})
    expect(setup.delegation.ledger.openRequestsOf('m-developer')[0].anchor).toEqual({initiative: 'launch', task: 'API1'})
  })

  it('merges a second brief into the live session and counts both open requests', async () => {
    setup = await setupDelegation()
    const context = setup.daemon.context
    const first = await delegate(context, setup.engine, setup.delegation.ledger, {member: 'developer', brief: 'First'})
    expect(first).toMatchObject({conv: 'm-developer', member: 'developer', reused: false, open_requests: 1, depth: 0, state: 'running'})
    const second = await delegate(context, setup.engine, setup.delegation.ledger, {from_conv: 'm-consultant', member: 'developer', brief: 'Second'})
    expect(second).toMatchObject({reused: true, open_requests: 2, depth: 1, state: 'waiting'})
    expect(setup.delegation.ledger.openRequestsOf('m-developer')[1].requester).toEqual({conv: 'm-consultant', member: 'consultant'})
  })

  it('tells a refused brief back to the requester once, and not again when the woken turn is refused too', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'architect', brief: 'Me again'}), delegateMarker({member: 'nobody', brief: 'x'}), delegateMarker({brief: 'no member'})]})
    const wake = lastSubmit(setup)
    expect(wake).toMatchObject({conv: CHAT, member: 'architect', author: 'daemon', origin: 'wake', merge: true})
    expect(wake.text).toContain('Delegation refused: delegation-reentry (to architect)')
    expect(wake.text).toContain('Delegation refused: member_not_found (to nobody)')
    expect(wake.text).toContain('Delegation refused: invalid_marker')
    expect(setup.seen('delegation.refused')).toEqual([expect.objectContaining({code: 'delegation-reentry', from_conv: CHAT, member: 'architect'})])
    const before = setup.engine.submitted.length
    await setup.engine.finish(CHAT, {markers: [delegateMarker({member: 'architect', brief: 'Still me'})]})
    expect(setup.engine.submitted.length).toBe(before)
    expect(setup.daemon.context.debug.tail({lastSecs: 60, tags: ['delegation']}).events.some((e) => e.msg.includes('not woken a second time'))).toBe(true)
  })
})

describe('delegation hook: reports', () => {
  it('closes the requests on a report, wakes the requester with a rendered report and says so', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it', task: 'API1'})]})
    const [row] = setup.delegation.ledger.openRequestsOf('m-developer')
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'Login route added with tests.', files: ['src/api/login.ts'], commit: 'abc1234'})]})
    expect(setup.delegation.ledger.openRequestsOf('m-developer')).toEqual([])
    expect(setup.delegation.ledger.row(row.request_id)).toMatchObject({status: 'closed', outcome: 'success', summary: 'Login route added with tests.', files: ['src/api/login.ts'], commit: 'abc1234'})
    const wake = lastSubmit(setup)
    expect(wake).toMatchObject({conv: CHAT, member: 'architect', author: 'developer', origin: 'wake', merge: true, meta: {request_id: row.request_id}, anchor: {task: 'API1'}})
    expect(wake.text).toContain(`developer answered delegation ${row.request_id}: success.`)
    expect(wake.text).toContain('Login route added with tests.')
    expect(wake.text).toContain('Files: src/api/login.ts')
    expect(wake.text).not.toMatch(/[{}]/)
    expect(setup.seen('delegation.closed')).toEqual([expect.objectContaining({request_id: row.request_id, outcome: 'success', member: 'developer', requester: {conv: CHAT, member: 'architect'}})])
    expect(setup.engine.coordinating(CHAT)).toBe(false)
  })

  it('closes only the requests a report names in `for`, and wakes only their requesters', async () => {
    setup = await setupDelegation()
    const {context} = setup.daemon
    const fromArchitect = await delegate(context, setup.engine, setup.delegation.ledger, {from_conv: CHAT, from_member: 'architect', member: 'developer', brief: 'A'})
    const fromConsultant = await delegate(context, setup.engine, setup.delegation.ledger, {from_conv: 'm-consultant', member: 'developer', brief: 'B'})
    const before = setup.engine.submitted.length
    await setup.engine.finish('m-developer', {markers: [report({status: 'blocked', for: [fromConsultant.request_id], summary: 'Needs a key'})]})
    expect(setup.delegation.ledger.openRequestsOf('m-developer').map((r) => r.request_id)).toEqual([fromArchitect.request_id])
    const wakes = setup.engine.submitted.slice(before)
    expect(wakes).toHaveLength(1)
    expect(wakes[0]).toMatchObject({conv: 'm-consultant', member: 'consultant', origin: 'wake'})
    expect(wakes[0].text).toContain(': blocked.')
  })

  it('closes every open request of the session when a report has no `for`, one wake per request', async () => {
    setup = await setupDelegation()
    const {context} = setup.daemon
    await delegate(context, setup.engine, setup.delegation.ledger, {from_conv: CHAT, from_member: 'architect', member: 'developer', brief: 'A'})
    await delegate(context, setup.engine, setup.delegation.ledger, {from_conv: 'm-consultant', member: 'developer', brief: 'B'})
    await setup.engine.finish('m-developer')
    // The merged brief B is answered by the next turn.
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'Both done'})]})
    expect(setup.delegation.ledger.openRequestsOf('m-developer')).toEqual([])
    expect(setup.seen('delegation.closed').map((d) => d.requester.conv).sort()).toEqual([CHAT, 'm-consultant'])
    expect(setup.engine.submitted.filter((input) => input.origin === 'wake').map((input) => input.conv).sort()).toEqual([CHAT, 'm-consultant'])
  })

  it('closes the requests a failed turn answered as failures, with the reason, and wakes the requester', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it'})]})
    const [row] = setup.delegation.ledger.openRequestsOf('m-developer')
    await setup.engine.finish('m-developer', {status: 'failed', reason: 'timeout', exit_code: null, text: 'Ran out of time.'})
    expect(setup.delegation.ledger.row(row.request_id)).toMatchObject({status: 'closed', outcome: 'failure', reason: 'the turn failed (timeout)'})
    expect(lastSubmit(setup).text).toContain('failure')
    expect(lastSubmit(setup).text).toContain('Reason: the turn failed (timeout).')
    expect(setup.seen('delegation.closed')[0]).toMatchObject({outcome: 'failure', reason: 'the turn failed (timeout)'})
  })

  it('keeps the requests open when the turn was stopped by the daemon shutting down', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it'})]})
    await setup.engine.finish('m-developer', {status: 'failed', reason: 'shutdown'})
    expect(setup.delegation.ledger.openRequestsOf('m-developer')).toHaveLength(1)
    expect(setup.seen('delegation.closed')).toEqual([])
  })

  it('closes as unreported the requests of a turn that ended without a report and waits on no one', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it'})]})
    await setup.engine.finish('m-developer', {text: 'I did it but forgot the block.'})
    const closed = setup.seen('delegation.closed')
    expect(closed).toEqual([expect.objectContaining({outcome: 'unreported', reason: 'the turn ended without a report'})])
    expect(lastSubmit(setup).text).toContain('I did it but forgot the block.')
  })

  it('wakes the operator with nothing when the operator asked: the event alone tells the answer', async () => {
    setup = await setupDelegation()
    const answer = await delegate(setup.daemon.context, setup.engine, setup.delegation.ledger, {member: 'developer', brief: 'Do it'})
    const before = setup.engine.submitted.length
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'ok'})]})
    expect(setup.engine.submitted.length).toBe(before)
    expect(setup.seen('delegation.closed')).toEqual([expect.objectContaining({request_id: answer.request_id, requester: {conv: null, member: 'operator'}})])
  })

  it('runs a chain: the middle member waits on its own brief, then answers its requester when woken', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it'})]})
    const [top] = setup.delegation.ledger.openRequestsOf('m-developer')
    // The developer hands a review on and ends its turn without a report: it is coordinating, its request stays open.
    await setup.engine.finish('m-developer', {markers: [delegateMarker({member: 'reviewer', brief: 'Review it'})]})
    expect(setup.delegation.ledger.row(top.request_id)?.status).toBe('open')
    const [review] = setup.delegation.ledger.openRequestsOf('m-reviewer')
    expect(review.chain).toEqual(['architect', 'developer'])
    expect(setup.seen('delegation.opened').at(-1)).toMatchObject({depth: 2})
    await setup.engine.finish('m-reviewer', {markers: [report({status: 'done', summary: 'Looks right'})]})
    // The wake carries the developer's own open request, so its next turn answers it.
    expect(lastSubmit(setup)).toMatchObject({conv: 'm-developer', member: 'developer', author: 'reviewer', request_ids: [top.request_id]})
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'Built and reviewed'})]})
    expect(setup.delegation.ledger.row(top.request_id)).toMatchObject({status: 'closed', outcome: 'success'})
    expect(lastSubmit(setup)).toMatchObject({conv: CHAT, member: 'architect'})
  })

  it('closes the row and answers the engine’s refusal when the brief cannot be started', async () => {
    setup = await setupDelegation()
    setup.engine.capacity = 0
    const error = await delegate(setup.daemon.context, setup.engine, setup.delegation.ledger, {member: 'developer', brief: 'x'}).catch((e) => e)
    expect(isMeshError(error) && error.code).toBe('at_capacity')
    expect(setup.delegation.ledger.openRequestsOf('m-developer')).toEqual([])
    expect(setup.delegation.ledger.snapshot().closed[0]).toMatchObject({outcome: 'failure', reason: 'the brief could not be started: at_capacity'})
  })
})

describe('delegation hook: commits by the git-manager', () => {
  it('briefs the git-manager for a report of uncommitted files, on behalf of the reporter, under the same chain', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it', task: 'API1', initiative: 'launch'})]})
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'Built', files: ['src/api/login.ts', 'test/login.test.ts'], commit: null, subject: 'feat(api): login route [API1]'})]})
    const [commit] = setup.delegation.ledger.openRequestsOf('m-git-manager')
    expect(commit).toMatchObject({requester: {conv: 'm-developer', member: 'developer'}, chain: ['architect', 'developer'], anchor: {task: 'API1', initiative: 'launch'}})
    const brief = setup.engine.submitted.find((input) => input.conv === 'm-git-manager')!
    expect(brief).toMatchObject({author: 'developer', origin: 'delegation', request_ids: [commit.request_id]})
    expect(brief.text).toContain('- src/api/login.ts')
    expect(brief.text).toContain('- test/login.test.ts')
    expect(brief.text).toContain('Subject: feat(api): login route [API1]')
    // The architect still hears the developer's report at once.
    expect(setup.engine.submitted.some((input) => input.conv === CHAT && input.origin === 'wake' && input.text.includes('Not committed yet.'))).toBe(true)

    // The git-manager's report wakes the developer; a repeat of the same report from that turn goes nowhere.
    await setup.engine.finish('m-git-manager', {markers: [report({status: 'done', summary: 'Committed', commit: 'abc1234'})]})
    expect(lastSubmit(setup)).toMatchObject({conv: 'm-developer', author: 'git-manager', origin: 'wake'})
    expect(lastSubmit(setup).text).toContain('Commit: abc1234')
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', files: ['src/api/login.ts'], commit: null})]})
    expect(setup.engine.submitted.filter((input) => input.conv === 'm-git-manager')).toHaveLength(1)
    expect(setup.delegation.ledger.snapshot().open).toEqual([])
  })

  it('leaves commits alone without a git-manager, when the report has a commit, or when the git-manager reports', async () => {
    setup = await setupDelegation({members: ['architect', 'developer']})
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Build it'})]})
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', files: ['src/x.ts'], commit: null})]})
    expect(setup.engine.submitted.some((input) => input.conv === 'm-git-manager')).toBe(false)
    await setup.close()

    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'A'}), delegateMarker({member: 'git-manager', brief: 'B'})]})
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', files: ['src/x.ts'], commit: 'abc1234'})]})
    await setup.engine.finish('m-git-manager', {markers: [report({status: 'done', files: ['src/y.ts'], commit: null})]})
    expect(setup.engine.submitted.filter((input) => input.conv === 'm-git-manager')).toHaveLength(1)
  })
})

describe('delegation hook: a requester between its rows closing and its wake', () => {
  it('stays coordinating while its wake is being submitted, so it is never announced idle before the wake runs', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Fix the footer'})]})
    // The wake's submit is held, as the real engine's awaits the member's card.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const submit = setup.engine.submit.bind(setup.engine)
    setup.engine.submit = async (input) => {
      if (input.origin === 'wake') await held
      return submit(input)
    }
    const answering = setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'fixed'})]})
    await expect.poll(() => setup!.delegation.ledger.openRequestsOf('m-developer')).toEqual([])
    // The row is closed and the wake not in yet: the architect is still coordinating, not idle.
    expect(setup.engine.coordinating(CHAT)).toBe(true)
    expect(setup.engine.idled).not.toContain(CHAT)
    release()
    await answering
    expect(lastSubmit(setup)).toMatchObject({conv: CHAT, origin: 'wake'})
    expect(setup.engine.coordinating(CHAT)).toBe(false)
    expect(setup.engine.idled).not.toContain(CHAT)
  })

  it('is announced idle once its wake is refused (nothing will run in it)', async () => {
    setup = await setupDelegation()
    await architectTurn(setup, {markers: [delegateMarker({member: 'developer', brief: 'Fix the footer'})]})
    expect(setup.engine.idled).not.toContain(CHAT)
    setup.engine.refuseWith = new Error('the architect card is gone')
    await setup.engine.finish('m-developer', {markers: [report({status: 'done', summary: 'fixed'})]})
    expect(setup.engine.idled).toContain(CHAT)
  })
})
