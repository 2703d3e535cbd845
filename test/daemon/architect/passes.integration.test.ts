/**
 * Architect passes in-process (issue 20): automatic wakes are debounced
 * (`architect.min_interval_seconds`) and the deferred wake runs when due; a
 * hand edit of a task file wakes the architect (the watcher's event); a
 * brief the daemon refuses leaves its task deferred with the refusal as the
 * reason; a pass a killed daemon left is ended `failed` by the next start,
 * and one running when the daemon stops ends `stopped`; the routes need the
 * portal token.
 */
import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {stringify} from 'yaml'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'
import {CLUSTER, makeRepo, minimalFiles, taskFile, type FixtureRepo} from '../../standard/fixtures.js'
import {marker, writeScriptTeam} from '../chat/script-team.js'

let repo: FixtureRepo | undefined
let harness: DaemonHarness | undefined
let events: EventRecorder | undefined
afterEach(async () => {
  events?.stop()
  await harness?.running.stop()
  repo?.cleanup()
  repo = harness = events = undefined
})

/** A project with API1 (backlog) and API4 (backlog), the architect and the developer as script members. */
function project(architect: {auto: boolean; min_interval_seconds?: number}, replies: Parameters<typeof writeScriptTeam>[1][number]['replies'] = []) {
  const base = minimalFiles()
  delete base['.mesh/modules/api/tasks/API1-first-task.md']
  repo = makeRepo(
    {
      '.mesh/public/cluster.yaml': stringify({...CLUSTER, architect}),
      '.mesh/modules/api/tasks/API1-login.md': taskFile({id: 'API1', status: 'backlog', priority: 'high'}),
      '.mesh/modules/api/tasks/API4-logout.md': taskFile({id: 'API4', status: 'backlog'}),
    },
    base,
  )
  writeScriptTeam(repo.root, [
    {id: 'architect', replies, default: {say: 'Noted.'}},
    {id: 'developer', replies: [], default: {say: 'On it.', hang: true}},
  ])
  return repo
}

async function start(options: {clock?: () => number} = {}) {
  harness = await startHarness({repo, ...options})
  events = recordEvents(harness.running.daemon.context.events, repo!.root)
  return harness
}
const call = (method: string, path: string, body?: unknown) => harness!.call(method, path, {auth: true, ...(body === undefined ? {} : {body: JSON.stringify(body)})})
const move = (id: string, status: string) => call('POST', `/tasks/${id}/transition`, {status})

describe('automatic wakes', () => {
  it('are debounced: a task that becomes dispatchable within the interval is deferred to its end, then handed to a pass', async () => {
    project({auto: true, min_interval_seconds: 1})
    // The clock stands still: the second wake is inside the interval whatever the machine's speed.
    const now = Date.parse('2026-03-04T10:00:00Z')
    await start({clock: () => now})
    expect((await move('API1', 'next')).status).toBe(200)
    const first = await events!.waitFor((event) => event.type === 'architect.pass.started', 'the first pass')
    await events!.waitFor((event) => event.type === 'architect.pass.ended' && event.data.pass_id === first.data.pass_id, 'its end')

    expect((await move('API4', 'next')).status).toBe(200)
    const deferred = await events!.waitFor((event) => event.type === 'architect.wake' && event.data.outcome === 'skipped', 'the deferred wake')
    expect(deferred.data).toMatchObject({trigger: 'auto', reason: 'debounced', tasks: ['API4']})
    expect((await call('GET', '/architect')).body.next_wake_at).toBe('2026-03-04T10:00:01.000Z')

    // The timer (a real second) wakes it again; its time has come, so the pass starts.
    const second = await events!.waitFor((event) => event.type === 'architect.pass.started' && event.data.pass_id !== first.data.pass_id, 'the deferred pass')
    expect(second.data).toMatchObject({trigger: 'auto', dispatchable: ['API1', 'API4']})
    const tail = harness!.running.daemon.context.debug.tail({lastSecs: 1800, tags: ['architect-wake']}).events
    expect(tail.map((event) => event.msg)).toContain('wake (auto): the wake deferred by architect.min_interval_seconds is due')
  })

  it('follow a task file edited by hand; a brief the daemon refuses leaves its task deferred, with the refusal', async () => {
    project({auto: true, min_interval_seconds: 0}, [{when: '1\\. #API1', say: `Taking it myself.\n${marker('delegate', {member: 'architect', brief: 'do it', task: 'API1'})}`}])
    await start()
    repo!.write('.mesh/modules/api/tasks/API1-login.md', taskFile({id: 'API1', status: 'next', priority: 'high'}))
    const started = await events!.waitFor((event) => event.type === 'architect.pass.started', 'the pass the edit wakes')
    expect(started.data).toMatchObject({trigger: 'auto', dispatchable: ['API1'], drafts: 0})
    const ended = await events!.waitFor((event) => event.type === 'architect.pass.ended', 'its end')
    expect(ended.data).toMatchObject({status: 'done', decisions: 'decisions: dispatched 0; deferred 1: API1 (brief to architect refused: delegation-reentry); drafts skipped 0'})
  })
})

describe('passes and the daemon stopping', () => {
  it('a pass running when the daemon stops ends stopped; one a killed daemon left is ended failed by the next start', async () => {
    project({auto: false}, [{when: 'Architect pass', say: 'thinking', hang: true}])
    await start()
    expect((await move('API1', 'next')).status).toBe(200)
    const run = await call('POST', '/architect/run')
    expect(run.status).toBe(202)
    await events!.waitFor((event) => event.type === 'chat.turn.started' && event.data.conv === 'arch-pass', 'the pass turn')
    events!.stop()
    await harness!.running.stop()
    const lines = () => readdirSync(join(repo!.root, '.mesh', 'timeline')).flatMap((day) => readFileSync(join(repo!.root, '.mesh', 'timeline', day), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
    expect(lines().filter((line) => line.type === 'architect.pass.ended')).toEqual([expect.objectContaining({pass_id: run.body.pass_id, status: 'stopped', decisions: 'decisions: the daemon stopped; dispatched 0; deferred 1: API1 (the pass was stopped before it was briefed); drafts skipped 0'})])

    // A daemon killed during a pass leaves it in the record file: as if this one had been.
    const record = join(repo!.root, '.mesh', '.runtime', 'architect', 'passes.json')
    const kept = JSON.parse(readFileSync(record, 'utf8'))
    repo!.write('.mesh/.runtime/architect/passes.json', JSON.stringify({...kept, current: {pass_id: 'ap-000000000001', trigger: 'auto', conv: 'arch-pass', started_at: '2026-03-04T10:00:00.000Z', offered: ['API1', 'API4'], drafts: ['API9'], briefs: [{request_id: 'dlg_000000000001', member: 'developer', task: 'API1'}], refused: []}}))
    await start()
    const status = (await call('GET', '/architect')).body
    expect(status.pass).toBeNull()
    expect(status.last).toMatchObject({pass_id: 'ap-000000000001', status: 'failed', decisions: 'decisions: the daemon was stopped or killed during the pass; dispatched 1: API1 → developer; deferred 1: API4 (the pass failed before it was briefed); drafts skipped 1: API9 (only the operator promotes a draft)'})
    // The record is saved after the status is answered (the save is queued): wait for the write, not a time.
    await vi.waitFor(() => expect(JSON.parse(readFileSync(record, 'utf8')).current).toBeNull())
  })
})

describe('a pass whose turn fails', () => {
  it('ends failed, saying why', async () => {
    project({auto: false}, [{when: 'Architect pass', say: 'I cannot work like this.', exit: 1}])
    await start()
    expect((await move('API1', 'next')).status).toBe(200)
    const run = await call('POST', '/architect/run')
    expect(run.status).toBe(202)
    const ended = await events!.waitFor((event) => event.type === 'architect.pass.ended', 'its end')
    expect(ended.data).toMatchObject({pass_id: run.body.pass_id, status: 'failed', decisions: "decisions: the architect's turn failed (exit); dispatched 0; deferred 1: API1 (the pass failed before it was briefed); drafts skipped 0"})
  })
})

describe('the routes', () => {
  it('need the portal token; a stop with no pass is 409 pass_not_running', async () => {
    project({auto: false})
    await start()
    for (const [method, path] of [['GET', '/architect'], ['POST', '/architect/run'], ['POST', '/architect/stop']]) {
      const refused = await harness!.call(method, path)
      expect(refused.status, path).toBe(401)
    }
    const stop = await call('POST', '/architect/stop')
    expect(stop.status).toBe(409)
    expect(stop.body.error.code).toBe('pass_not_running')
    const status = (await call('GET', '/architect')).body
    expect(status).toMatchObject({auto: false, min_interval_seconds: 60, conv: 'arch-pass', busy: false, pass: null, last: null, dispatchable: [], drafts: [], waiting: [], next_wake_at: null})
  })
})
