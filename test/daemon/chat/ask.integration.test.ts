import {afterEach, describe, expect, it} from 'vitest'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'
import {writeScriptTeam} from './script-team.js'

let harness: DaemonHarness
let events: EventRecorder
afterEach(async () => {
  events?.stop()
  await harness?.close()
})

const PROJECT = {'x-mesh-project': 'demo'}

async function start() {
  harness = await startHarness({chat: {turnTimeoutMs: 30_000}})
  writeScriptTeam(harness.repo.root, [
    {id: 'consultant', exposure: 'external', replies: [{when: 'slow', say: 'thinking', hang: true}, {say: 'answer to {{text}}'}]},
    {id: 'developer', exposure: 'external', replies: [{say: 'dev'}]},
    {id: 'architect', replies: [{say: 'arch'}]},
  ])
  // The cards were written by hand: exposing through the route creates the tokens.
  for (const id of ['consultant', 'developer']) await harness.call('PATCH', `/team/${id}`, {auth: true, body: JSON.stringify({exposure: 'external'})})
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
}

const tokenOf = async (id: string) => (await harness.call('GET', `/team/${id}/token`, {auth: true})).body.token as string
const ask = (id: string, token: string | null, body: unknown, headers: Record<string, string> = PROJECT) =>
  harness.call('POST', `/team/${id}/ask`, {headers: {...headers, ...(token ? {authorization: `Bearer ${token}`} : {})}, body: JSON.stringify(body)})
const poll = (requestId: string, token: string) => harness.call('GET', `/team/requests/${requestId}`, {headers: {...PROJECT, authorization: `Bearer ${token}`}})

async function pollUntil(requestId: string, token: string, done: (status: string) => boolean) {
  for (;;) {
    const answer = await poll(requestId, token)
    if (answer.status !== 200 || done(answer.body.status)) return answer
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('ask and poll', () => {
  it('answers 202 {request_id, conv}, then the poll goes to done with the result text', async () => {
    await start()
    const token = await tokenOf('consultant')
    const asked = await ask('consultant', token, {text: 'the question', session: 'S1'})
    expect(asked.status).toBe(202)
    expect(asked.body).toEqual({request_id: expect.stringMatching(/^req_[0-9a-f]{12}$/), conv: 'ask-consultant-s1'})
    const answered = await pollUntil(asked.body.request_id, token, (status) => status === 'done' || status === 'error')
    expect(answered.body).toEqual({request_id: asked.body.request_id, status: 'done', result_text: 'answer to the question', conv: 'ask-consultant-s1'})
  })

  it('refuses as the spec says: 401 without token, header or with an unknown token; 403 for another member’s token or an internal member; 404 for an unknown member or request', async () => {
    await start()
    const token = await tokenOf('consultant')
    const other = await tokenOf('developer')
    expect((await ask('consultant', null, {text: 'x'})).status).toBe(401)
    expect((await ask('consultant', token, {text: 'x'}, {})).body.error.code).toBe('project_header_required')
    expect((await ask('consultant', 'mtk_not-a-token', {text: 'x'})).status).toBe(401)
    const mismatch = await ask('consultant', other, {text: 'x'})
    expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'token_member_mismatch'])
    expect((await ask('architect', token, {text: 'x'})).status).toBe(403)
    expect((await ask('nobody', token, {text: 'x'})).status).toBe(404)
    expect((await poll('req_000000000000', token)).status).toBe(404)
    expect((await ask('consultant', token, {text: 'x'}, {'x-mesh-project': 'another'})).status).toBe(403)
    // The member token opens nothing but its ask and poll routes.
    expect((await harness.call('GET', '/team/consultant/token', {headers: {authorization: `Bearer ${token}`}})).status).toBe(401)
    expect((await harness.call('POST', '/chat/send', {headers: {authorization: `Bearer ${token}`}, body: JSON.stringify({text: 'x'})})).status).toBe(401)
  })

  it('refuses in the documented order: no token is 401 before the project or the member is looked at, and says nothing of the project (issue 19)', async () => {
    await start()
    const token = await tokenOf('consultant')
    const asked = await ask('consultant', token, {text: 'x'})
    const anonymous = [
      await ask('consultant', null, {text: 'x'}, {'x-mesh-project': 'another'}),
      await ask('nobody', null, {text: 'x'}, {}),
      await ask('architect', null, {text: 'x'}),
      await harness.call('GET', '/team/requests/req_000000000000', {headers: {'x-mesh-project': 'another'}}),
      await harness.call('GET', `/team/requests/${asked.body.request_id}`, {headers: {'x-mesh-project': 'another'}}),
    ]
    for (const answer of anonymous) {
      expect([answer.status, answer.body.error.code]).toEqual([401, 'member_token_required'])
      // Neither the project's id nor whether the member or request exists.
      expect(JSON.stringify(answer.body)).not.toMatch(/demo|nobody|internal|exposed|req_/)
    }
    // With a token: the header, then the project — named by the caller only — then the member or request.
    expect((await ask('nobody', token, {text: 'x'}, {})).body.error.code).toBe('project_header_required')
    const elsewhere = await ask('nobody', token, {text: 'x'}, {'x-mesh-project': 'another'})
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([403, 'project_mismatch'])
    expect(elsewhere.body.error.message).not.toContain('demo')
    expect((await ask('nobody', token, {text: 'x'})).body.error.code).toBe('member_not_found')
    expect((await poll('req_000000000000', token)).body.error.code).toBe('request_not_found')
    // Routes other than ask and poll keep the perimeter's check first.
    expect((await harness.call('GET', '/chat/convs', {headers: {'x-mesh-project': 'another'}})).body.error.code).toBe('project_mismatch')
  })

  it('answers 403 to every outstanding ask once the member is revoked, and 401 to the old token after a rotate', async () => {
    await start()
    const token = await tokenOf('consultant')
    const outstanding = await ask('consultant', token, {text: 'slow one'})
    expect(outstanding.status).toBe(202)
    await events.waitFor((event) => event.type === 'chat.turn.started' && event.data.conv === outstanding.body.conv)
    expect((await poll(outstanding.body.request_id, token)).body.status).toBe('running')
    await harness.call('PATCH', '/team/consultant', {auth: true, body: JSON.stringify({exposure: 'internal'})})
    const refused = await poll(outstanding.body.request_id, token)
    expect([refused.status, refused.body.error.code]).toEqual([403, 'member_not_exposed'])

    const dev = await tokenOf('developer')
    const rotated = (await harness.call('POST', '/team/developer/rotate', {auth: true})).body.token
    expect((await ask('developer', dev, {text: 'x'})).status).toBe(401)
    expect((await ask('developer', rotated, {text: 'x'})).status).toBe(202)
  })
})
