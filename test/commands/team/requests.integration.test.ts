/**
 * `mesh team requests [--cancel <id>]` (issue 19, Recovery): the open
 * delegation requests listed, and one cancelled — which frees its place in
 * the requester's fan-out, so the operator's sixth brief, refused while five
 * sessions owed it an answer, is taken. Through the built binary against
 * `mesh serve`.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'

const MEMBERS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6']

describe('mesh team requests', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam(MEMBERS.map((id) => ({id, replies: [], default: {say: 'on it', hang: true}})))
  })
  afterAll(async () => {
    await team?.stop()
  })

  it('lists the open requests, cancels one (its requester is told) and so frees its fan-out place', async () => {
    const briefs = []
    for (const member of MEMBERS.slice(0, 5)) {
      const brief = await team.call('POST', '/chat/delegate', {member, brief: `Look into part ${member}`})
      expect(brief.status).toBe(202)
      briefs.push(brief.body.request_id as string)
    }
    const refused = await team.call('POST', '/chat/delegate', {member: 'm6', brief: 'One more'})
    expect(refused.status).toBe(429)
    expect(refused.body.error.code).toBe('delegation-fan-out')

    const listed = await team.mesh(['team', 'requests'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/^5 open request\(s\) \(fan-out limit 5 member sessions per conversation\):$/m)
    for (const [i, id] of briefs.entries()) expect(listed.stdout).toMatch(new RegExp(`^${id}  operator → m${i + 1}  since .*  Look into part m${i + 1}$`, 'm'))
    expect(json(await team.mesh(['team', 'requests', '--json'])).open.map((row: any) => row.request_id)).toEqual(briefs)

    const cancelled = await team.mesh(['team', 'requests', '--cancel', briefs[0]])
    expect(cancelled.code, cancelled.stderr).toBe(0)
    expect(cancelled.stdout).toBe(`Cancelled ${briefs[0]} (operator → m1).\n`)
    const ledger = (await team.call('GET', '/chat/delegations')).body
    expect(ledger.open.map((row: any) => row.request_id)).toEqual(briefs.slice(1))
    expect(ledger.closed[0]).toMatchObject({request_id: briefs[0], outcome: 'cancelled', reason: 'cancelled by the operator'})

    expect((await team.call('POST', '/chat/delegate', {member: 'm6', brief: 'One more'})).status).toBe(202)
  })

  it('refuses a malformed id before any call, and an unknown or closed one with the daemon’s code', async () => {
    const malformed = await team.mesh(['team', 'requests', '--cancel', '../etc'])
    expect(malformed.code).toBe(2)
    expect(malformed.errorText).toContain('usage_bad_request_id')
    const unknown = await team.mesh(['team', 'requests', '--cancel', 'dlg_000000000000', '--json'])
    expect(unknown.code).toBe(1)
    expect(json(unknown).error.code).toBe('request_not_found')
    const closed = (await team.call('GET', '/chat/delegations')).body.closed[0].request_id
    expect(json(await team.mesh(['team', 'requests', '--cancel', closed, '--json'])).error.code).toBe('request_closed')
  })
})
