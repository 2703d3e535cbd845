import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {DaemonContext} from '../../../../src/daemon/context.js'
import {startDelegation, type Delegation} from '../../../../src/daemon/chat/delegation/index.js'
import type {FixtureRepo} from '../../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {fakeEngine, type FakeEngine} from '../fake-engine.js'
import {teamRepo} from './setup.js'

let harness: DaemonHarness | undefined
let repo: FixtureRepo | undefined
afterEach(async () => {
  await harness?.running.stop()
  repo?.cleanup()
  harness = undefined
  repo = undefined
})

/** A daemon serving only delegation's routes, over a fake engine the test drives. */
async function serve(fixture: FixtureRepo) {
  let engine!: FakeEngine
  let delegation!: Delegation
  const area = (context: DaemonContext) => {
    engine = fakeEngine()
    delegation = startDelegation(context, engine)
    return {name: 'delegation', routes: delegation.routes, close: () => delegation.flush()}
  }
  const h = await startHarness({repo: fixture, areas: [area]})
  return {h, engine, delegation}
}

const post = (h: DaemonHarness, body: unknown, auth = true) => h.call('POST', '/chat/delegate', {auth, body: JSON.stringify(body)})

describe('POST /chat/delegate and GET /chat/delegations', () => {
  it('opens a brief for the operator with 202 and lists it in the ledger', async () => {
    repo = teamRepo()
    const {h, engine} = await serve(repo)
    harness = h
    const res = await post(h, {member: 'developer', brief: 'Build the login', task: 'API1', initiative: 'launch'})
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({conv: 'm-developer', member: 'developer', reused: false, open_requests: 1, depth: 0, state: 'running'})
    expect(res.body.request_id).toMatch(/^dlg_[0-9a-f]{12}$/)
    expect(engine.submitted[0]).toMatchObject({conv: 'm-developer', author: 'operator', origin: 'delegation', anchor: {task: 'API1', initiative: 'launch'}})

    const list = await h.call('GET', '/chat/delegations', {auth: true})
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({open: [{request_id: res.body.request_id, requester: {conv: null, member: 'operator'}, chain: [], brief: 'Build the login'}], closed: [], limits: {max_depth: 4, max_fan_out: 5}})
  })

  it('takes from_conv as the requester, its member from the session id', async () => {
    repo = teamRepo()
    const {h, delegation} = await serve(repo)
    harness = h
    const res = await post(h, {member: 'developer', brief: 'Review', from_conv: 'm-consultant'})
    expect(res.status).toBe(202)
    expect(res.body.depth).toBe(1)
    expect(delegation.ledger.openRequestsOf('m-developer')[0].requester).toEqual({conv: 'm-consultant', member: 'consultant'})
    const unknown = await post(h, {member: 'developer', brief: 'x', from_conv: 'c-0123456789ab'})
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('conv_not_found')
  })

  it('answers the refusals with their codes and statuses', async () => {
    repo = teamRepo(['architect', 'developer', 'git-manager', 'consultant', 'reviewer', 'deployer', 'tester'])
    const {h} = await serve(repo)
    harness = h
    const reentry = await post(h, {member: 'consultant', brief: 'x', from_conv: 'm-consultant'})
    expect([reentry.status, reentry.body.error.code]).toEqual([409, 'delegation-reentry'])
    await post(h, {member: 'developer', brief: 'x', from_conv: 'm-consultant'})
    const cycle = await post(h, {member: 'consultant', brief: 'x', from_conv: 'm-developer'})
    expect([cycle.status, cycle.body.error.code, cycle.body.error.chain]).toEqual([409, 'delegation-cycle', ['consultant', 'developer']])
    for (const member of ['developer', 'git-manager', 'consultant', 'reviewer', 'deployer']) expect((await post(h, {member, brief: 'x', from_conv: 'm-architect'})).status).toBe(202)
    const fanOut = await post(h, {member: 'tester', brief: 'x', from_conv: 'm-architect'})
    expect([fanOut.status, fanOut.body.error.code]).toEqual([429, 'delegation-fan-out'])
  })

  it('refuses what it cannot take: no token, a bad body, an unknown member', async () => {
    repo = teamRepo()
    const {h, engine} = await serve(repo)
    harness = h
    expect((await post(h, {member: 'developer', brief: 'x'}, false)).status).toBe(401)
    expect((await h.call('GET', '/chat/delegations')).status).toBe(401)
    const extra = await post(h, {member: 'developer', brief: 'x', chain: []})
    expect([extra.status, extra.body.error.code]).toEqual([400, 'invalid_body'])
    const empty = await post(h, {member: 'developer', brief: ''})
    expect([empty.status, empty.body.error.field]).toEqual([400, 'brief'])
    const badId = await post(h, {member: '../x', brief: 'x'})
    expect([badId.status, badId.body.error.field]).toEqual([400, 'member'])
    const unknown = await post(h, {member: 'nobody', brief: 'x'})
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'member_not_found'])
    expect(engine.submitted).toEqual([])
  })

  it('keeps the open requests across a restart', async () => {
    repo = teamRepo()
    const first = await serve(repo)
    harness = first.h
    const res = await post(first.h, {member: 'developer', brief: 'Survive', from_conv: 'm-architect'})
    await first.h.running.stop()
    harness = undefined
    expect(existsSync(join(repo.root, '.mesh/.runtime/chat/ledger.json'))).toBe(true)

    const second = await serve(repo)
    harness = second.h
    const list = await second.h.call('GET', '/chat/delegations', {auth: true})
    expect(list.body.open).toEqual([expect.objectContaining({request_id: res.body.request_id, brief: 'Survive', chain: ['architect']})])
    expect(second.delegation.ledger.isCoordinating('m-architect')).toBe(true)
  })
})
