/**
 * The daily budget (issue 19, Cost and usage): once the day's reported cost
 * reaches `--max-cost-per-day`, new turns are 429 `budget_exhausted`;
 * delegations, wakes and queued items wait and run when the limit is raised
 * or the UTC day turns. Costs are finals written through the daemon's own
 * timeline writer (the client decoders fill real ones).
 */
import {afterEach, describe, expect, it} from 'vitest'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {recordEvents, type EventRecorder} from '../../watch/recorder.js'
import {marker, writeScriptTeam, type ScriptMember} from '../script-team.js'

let harness: DaemonHarness
let events: EventRecorder
afterEach(async () => {
  events?.stop()
  await harness?.close()
})

async function start(members: ScriptMember[], options: Parameters<typeof startHarness>[0] = {}) {
  harness = await startHarness({...options, chat: {maxCostPerDay: 1, ...options.chat}})
  writeScriptTeam(harness.repo.root, members)
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
}

let spent = 0
/** A final of another conversation that reports `cost_usd`, as a client's decoder would. */
function spend(cost: number) {
  harness.running.daemon.context.timeline.append('chat.assistant.final', {author: 'architect', text: 'paid work', conv: `c-paid-${spent++}`, turn_id: `t-paid-${spent}`, member: 'architect', profile: 'architect', status: 'done', exit_code: 0, usage: {input_tokens: 1, output_tokens: 1, cache_read_tokens: null, cache_write_tokens: null, cost_usd: cost, duration_ms: 1, tool_calls: 0}})
}

const post = (path: string, body: unknown) => harness.call('POST', path, {auth: true, body: JSON.stringify(body)})
const budgetNow = async () => (await harness.call('GET', '/usage/budget', {auth: true})).body
const finalOf = (match: (data: any) => boolean, what: string) => events.waitFor((event) => event.type === 'chat.assistant.final' && match(event.data), what)

describe('the daily budget', () => {
  it('refuses new turns with 429 budget_exhausted once the day reported the limit, and says so in /health', async () => {
    await start([{id: 'architect', replies: [{say: 'ok'}]}, {id: 'consultant', exposure: 'external', replies: [{say: 'answer'}]}])
    spend(0.6)
    const first = await post('/chat/send', {text: 'under the limit'})
    expect(first.status).toBe(202)
    await finalOf((data) => data.turn_id === first.body.turn_id, 'the first final')

    spend(0.4)
    expect(await budgetNow()).toMatchObject({max_cost_per_day: 1, spent_usd: 1, exhausted: true, held_turns: 0})
    const refused = await post('/chat/send', {text: 'over the limit'})
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatchObject({code: 'budget_exhausted', message: expect.stringMatching(/reached the daemon's limit of \$1 per day/)})
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await post('/chat/dispatch', {text: 'dispatch'})).body.error.code).toBe('budget_exhausted')

    // An ask from outside is a new turn too.
    await harness.call('PATCH', '/team/consultant', {auth: true, body: JSON.stringify({exposure: 'external'})})
    const token = (await harness.call('GET', '/team/consultant/token', {auth: true})).body.token
    const asked = await harness.call('POST', '/team/consultant/ask', {headers: {'x-mesh-project': 'demo', authorization: `Bearer ${token}`}, body: JSON.stringify({text: 'q'})})
    expect([asked.status, asked.body.error.code]).toEqual([429, 'budget_exhausted'])

    // A promoted queue item keeps its place.
    const item = (await post('/chat/conv/c-q/queue', {text: 'later', member: 'architect'})).body
    expect((await post(`/chat/conv/c-q/queue/${item.id}/promote`, {})).body.error.code).toBe('budget_exhausted')
    expect((await harness.call('GET', '/chat/conv/c-q/queue', {auth: true})).body.items).toMatchObject([{id: item.id, status: 'queued'}])

    const health = (await harness.call('GET', '/health')).body
    expect(health.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/the day's budget is spent \(\$1 of \$1\)/)]))
    // Lowering the limit under the day's cost refuses as well; raising it opens the budget at once.
    expect((await harness.call('PUT', '/usage/budget', {auth: true, body: JSON.stringify({max_cost_per_day: 2})})).body).toMatchObject({max_cost_per_day: 2, exhausted: false})
    expect((await post('/chat/send', {text: 'room again'})).status).toBe(202)
  })

  it('holds a delegation made while the budget is spent, shows it, and runs it when the limit is raised', async () => {
    const brief = marker('delegate', {member: 'developer', brief: 'build the thing', task: 'T1'})
    await start([
      {id: 'architect', replies: [{when: 'plan', say: `→ working on #I1 · #T1\nplanning\nstill planning\n${brief}`, delay_ms: 150}, {say: 'noted'}]},
      {id: 'developer', replies: [{say: `built\n${marker('report', {status: 'done', summary: 'built it'})}`}]},
    ])
    const planned = await post('/chat/send', {text: 'plan the work', conv: 'c-plan'})
    expect(planned.status).toBe(202)
    // The day's cost reaches the limit while the architect's turn runs.
    await events.waitFor((event) => event.type === 'chat.assistant.delta' && event.data.turn_id === planned.body.turn_id, 'the first line of the plan')
    spend(1)
    await finalOf((data) => data.turn_id === planned.body.turn_id, 'the plan')

    // The brief went out (never refused) and its turn waits for the budget, said once in the thread.
    const held = await events.waitFor((event) => event.type === 'chat.budget.held' && event.data.member === 'developer', 'the held delegation')
    const opened = await events.waitFor((event) => event.type === 'delegation.opened', 'the brief')
    expect(held.data).toMatchObject({author: 'daemon', conv: opened.data.conv, request_ids: [opened.data.request_id], text: expect.stringMatching(/developer's next turn waits until .*T00:00:00\.000Z or until the limit is raised/)})
    expect((await harness.call('GET', `/chat/turns/${held.data.turn_id}`, {auth: true})).body.status).toBe('waiting')
    expect((await harness.call('GET', '/chat/convs', {auth: true})).body.convs.find((conv: any) => conv.conv === opened.data.conv)).toMatchObject({held: 'budget', waiting: 1})
    expect((await harness.call('GET', '/chat/delegations', {auth: true})).body.open).toMatchObject([{request_id: opened.data.request_id}])
    expect(await budgetNow()).toMatchObject({exhausted: true, held_turns: 1})

    const raised = await harness.call('PUT', '/usage/budget', {auth: true, body: JSON.stringify({max_cost_per_day: 3})})
    expect(raised.body).toMatchObject({max_cost_per_day: 3, spent_usd: 1, exhausted: false})
    await events.waitFor((event) => event.type === 'chat.budget.released', 'the release')
    const built = await finalOf((data) => data.member === 'developer', "the developer's turn")
    expect(built.data).toMatchObject({status: 'done', turn_id: held.data.turn_id})
    // The report closes the request and wakes the architect: nothing of the work was lost.
    await events.waitFor((event) => event.type === 'delegation.closed' && event.data.request_id === opened.data.request_id && event.data.outcome === 'success', 'the report closing the request')
    await finalOf((data) => data.conv === 'c-plan' && data.text === 'noted', "the architect's wake")
  })

  it('keeps a queued item in its queue while the budget is spent and sends it when the limit is raised', async () => {
    await start([{id: 'architect', replies: [{when: 'first', say: 'one\ntwo\nthree', delay_ms: 150}, {say: 'follow-up done'}]}])
    const first = await post('/chat/send', {text: 'first', conv: 'c-q'})
    await events.waitFor((event) => event.type === 'chat.assistant.delta' && event.data.turn_id === first.body.turn_id, 'the first line')
    const queued = (await post('/chat/conv/c-q/queue', {text: 'follow up'})).body
    spend(1)
    await finalOf((data) => data.turn_id === first.body.turn_id, 'the first final')
    // The conv is idle; with room in the budget its queue would send now. The watcher settling proves the dispatch ran.
    await events.settle()
    expect((await harness.call('GET', '/chat/conv/c-q/queue', {auth: true})).body.items).toMatchObject([{id: queued.id, status: 'queued'}])
    expect(events.of('queue.item.sent')).toEqual([])

    await harness.call('PUT', '/usage/budget', {auth: true, body: JSON.stringify({max_cost_per_day: null})})
    const sent = await events.waitFor((event) => event.type === 'queue.item.sent' && event.data.item.id === queued.id, 'the queued item sent')
    expect((await finalOf((data) => data.turn_id === sent.data.turn_id, 'the follow-up turn')).data.text).toBe('follow-up done')
  })

  it('runs a held delegation when the UTC day turns (the injected clock crosses midnight)', async () => {
    let now = Date.parse('2026-11-26T23:59:59.000Z')
    await start([{id: 'developer', replies: [{say: 'done'}]}], {clock: () => now})
    spend(1.5)
    expect((await post('/chat/send', {text: 'x', member: 'developer'})).body.error.code).toBe('budget_exhausted')
    const delegated = await post('/chat/delegate', {member: 'developer', brief: 'overnight work'})
    expect(delegated.status).toBe(202)
    expect(delegated.body.state).toBe('waiting')
    await events.waitFor((event) => event.type === 'chat.budget.held' && event.data.turn_id === delegated.body.turn_id, 'the held delegation')

    now = Date.parse('2026-11-27T00:00:01.000Z')
    await events.waitFor((event) => event.type === 'chat.budget.released', 'the release at 00:00 UTC')
    const final = await finalOf((data) => data.turn_id === delegated.body.turn_id, 'the delegated turn')
    expect(final).toMatchObject({ts: '2026-11-27T00:00:01.000Z', data: {status: 'done', text: 'done'}})
    expect(await budgetNow()).toMatchObject({day: '2026-11-27', spent_usd: 0, exhausted: false, resets_at: '2026-11-28T00:00:00.000Z'})
  })

  it("counts today's finals already in the timeline when the daemon starts", async () => {
    const first = await startHarness({chat: {maxCostPerDay: 1}})
    harness = first
    spend(0.75)
    spend(0.25)
    await first.running.daemon.context.timeline.flush()
    await first.running.stop()
    harness = await startHarness({repo: first.repo, chat: {maxCostPerDay: 1}})
    expect(await budgetNow()).toMatchObject({spent_usd: 1, exhausted: true})
    expect((await post('/chat/send', {text: 'x'})).status).toBe(429)
  })
})
