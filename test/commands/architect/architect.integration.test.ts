/**
 * Architect passes through the real binary and HTTP (issue 20, the bar):
 * with `architect.auto` on and the script client, moving a task to `next`
 * wakes the architect, which dispatches it to the developer, whose turn
 * finishes it; the pass ends with a `decisions:` line counting the skipped
 * draft. The task that depended on it becomes dispatchable and wakes a pass
 * whose turn hangs: `mesh architect stop` cancels it. Every wake is logged
 * (`architect-wake`), each skip with its reason (busy, auto off, nothing
 * dispatchable, over the context budget, budget exhausted), a failed wake
 * (`architect-wake.failed`), and the portal's `ux.run-all` /
 * `ux.stop-architect`. Waits are on `/events`, never on elapsed time; the
 * debounce is set to 0 in cluster.yaml.
 */
import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {stringify} from 'yaml'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {CLUSTER, makeRepo, minimalFiles, taskFile, type FixtureRepo} from '../../standard/fixtures.js'
import {marker, writeScriptTeam} from '../../daemon/chat/script-team.js'

const WAIT_MS = 30_000

let repo: FixtureRepo
let daemon: SpawnedCli
let url: string
let portal: string
let socket: WebSocket
type Event = {type: string; ts: string; data: any}
const events: Event[] = []
const waiters = new Set<() => void>()

/** The first event since `from` (an index into `events`) that matches. */
function waitForEvent(match: (event: Event) => boolean, what: string, from = 0) {
  return new Promise<Event>((resolve, reject) => {
    const check = () => {
      const found = events.slice(from).find(match)
      if (!found) return false
      waiters.delete(check)
      clearTimeout(timer)
      resolve(found)
      return true
    }
    const timer = setTimeout(() => {
      waiters.delete(check)
      reject(new Error(`no ${what} within ${WAIT_MS} ms; saw ${events.map((event) => event.type).join(', ')}`))
    }, WAIT_MS)
    if (!check()) waiters.add(check)
  })
}

async function http(method: string, path: string) {
  const response = await fetch(`${url}${path}`, {method, headers: {authorization: `Bearer ${portal}`}})
  return {status: response.status, body: (await response.json()) as any}
}

const mesh = (args: string[]) => runCli([...args, '--dir', repo.root])
const meshJson = (args: string[]) => runCli([...args, '--dir', repo.root, '--json'])
const task = (id: string, slug: string, fields: Record<string, unknown>) => ({[`.mesh/modules/api/tasks/${id}-${slug}.md`]: taskFile({id, title: slug.replace(/-/g, ' '), owner: 'developer', ...fields})})

beforeAll(async () => {
  const base = minimalFiles()
  delete base['.mesh/modules/api/tasks/API1-first-task.md']
  repo = makeRepo({
    '.mesh/public/cluster.yaml': stringify({...CLUSTER, architect: {auto: true, min_interval_seconds: 0}}),
    ...task('API1', 'login-route', {status: 'backlog', priority: 'high'}),
    ...task('API2', 'rate-limits', {status: 'draft', priority: 'critical'}),
    ...task('API3', 'sessions', {status: 'next', priority: 'medium', depends_on: ['API1']}),
    ...task('API4', 'logout', {status: 'backlog', priority: 'high'}),
  }, base)
  writeScriptTeam(repo.root, [
    {
      id: 'architect',
      replies: [
        // The pass that API1's completion wakes: it hangs until the operator stops it.
        {when: '1\\. #API3 \\[', say: 'Looking at #API3 first.', hang: true},
        {when: '1\\. #API1 \\[', say: `→ working on #API1\nHanding the login route to the developer.\n${marker('delegate', {member: 'developer', brief: 'Implement the login route.', task: 'API1'})}`},
        {when: 'developer answered delegation', say: 'The developer finished the login route.\n**decisions:** dispatched API1 to developer, who finished it'},
      ],
      default: {say: 'Noted: nothing to hand on in this pass.'},
    },
    {
      id: 'developer',
      // A structured stream, so the turn reports what it cost (the budget is spent with it later).
      format: 'claude-stream',
      replies: [{when: '#API1', say: `→ working on #API1\nThe login route is in.\n${marker('report', {status: 'done', task: 'API1', summary: 'Added the login route.'})}`, usage: {input_tokens: 100, output_tokens: 20, cost_usd: 0.5}}],
      default: {say: 'Nothing to do.'},
    },
  ])
  daemon = spawnCli(['serve', '--port', '0', '--json', '--turn-timeout', '120'], {cwd: repo.root, env: {MESH_LOG_LEVEL: 'warn'}})
  url = JSON.parse(await daemon.waitFor((line) => line.includes('"listening"'))).url
  portal = readFileSync(join(repo.root, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  socket = new WebSocket(`${url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${portal}`}})
  socket.on('message', (data) => {
    events.push(JSON.parse(String(data)))
    for (const check of [...waiters]) check()
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
}, 60_000)

afterAll(async () => {
  socket?.close()
  expect(await daemon?.stop()).toBe(0)
  repo?.cleanup()
})

describe('architect passes, through the binary and HTTP', () => {
  it('a task moved to next wakes the architect; it dispatches it to the developer, whose turn finishes it; the pass ends with a decisions line counting the draft', async () => {
    const before = events.length
    const moved = await mesh(['task', 'move', 'API1', 'next'])
    expect(moved.code, moved.stderr).toBe(0)

    const started = await waitForEvent((event) => event.type === 'architect.pass.started', 'architect.pass.started', before)
    expect(started.data).toMatchObject({author: 'daemon', trigger: 'auto', conv: 'arch-pass', dispatchable: ['API1'], drafts: 1})
    expect(started.data.pass_id).toMatch(/^ap-[0-9a-f]{12}$/)
    const woke = await waitForEvent((event) => event.type === 'architect.wake', 'the wake', before)
    expect(woke.data).toMatchObject({trigger: 'auto', outcome: 'started', tasks: ['API1'], pass_id: started.data.pass_id})

    const opened = await waitForEvent((event) => event.type === 'delegation.opened' && event.data.requester?.conv === 'arch-pass', 'the brief to the developer', before)
    expect(opened.data).toMatchObject({member: 'developer', anchor: {task: 'API1'}})
    const completed = await waitForEvent((event) => event.type === 'task.completed' && event.data.task === 'API1', 'API1 completed by the developer', before)
    expect(completed.data.member).toBe('developer')

    const ended = await waitForEvent((event) => event.type === 'architect.pass.ended' && event.data.pass_id === started.data.pass_id, 'the end of the pass', before)
    // The architect's own line, and the drafts count the spec asks for, added since the line does not speak of drafts.
    expect(ended.data).toMatchObject({author: 'daemon', conv: 'arch-pass', status: 'done', decisions: 'decisions: dispatched API1 to developer, who finished it; drafts skipped 1: API2 (only the operator promotes a draft)'})
    expect(ended.data.text).toBe(ended.data.decisions)
    expect(repo.read('.mesh/modules/api/tasks/API1-login-route.md')).toMatch(/^status: done$/m)

    const tail = (await http('GET', '/debug/tail?tag=architect.pass&last=1800')).body.events
    expect(tail.map((event: any) => event.msg)).toContain(ended.data.decisions)
  })

  it('the task that waited on it becomes dispatchable and wakes another pass; a wake while it runs is skipped as busy; mesh architect stop cancels its hanging turn', async () => {
    const second = await waitForEvent((event) => event.type === 'architect.pass.started' && event.data.dispatchable.includes('API3'), 'the pass API3 wakes')
    expect(second.data).toMatchObject({trigger: 'auto', dispatchable: ['API3'], drafts: 1})
    await waitForEvent((event) => event.type === 'chat.turn.started' && event.data.conv === 'arch-pass' && event.data.origin === 'pass' && events.indexOf(event) > events.indexOf(second), 'the hanging turn')

    const status = json(await meshJson(['architect', 'status']))
    expect(status.pass).toMatchObject({pass_id: second.data.pass_id, status: 'running', dispatchable: ['API3']})
    expect(status.pass.turn_id).toMatch(/^t-/)
    expect(status.last.decisions).toMatch(/^decisions: dispatched API1 to developer/)

    // Busy: a task that becomes dispatchable now is not handed to a second pass.
    const before = events.length
    expect((await mesh(['task', 'move', 'API4', 'next'])).code).toBe(0)
    const busy = await waitForEvent((event) => event.type === 'architect.wake' && event.data.outcome === 'skipped', 'the busy wake', before)
    expect(busy.data).toMatchObject({trigger: 'auto', reason: 'busy', tasks: ['API4']})

    const stopped = await mesh(['architect', 'stop'])
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(stopped.stdout).toContain(`Pass ${second.data.pass_id} (auto) stopped`)
    const ended = await waitForEvent((event) => event.type === 'architect.pass.ended' && event.data.pass_id === second.data.pass_id, 'the stopped pass', before)
    expect(ended.data).toMatchObject({status: 'stopped', decisions: 'decisions: stopped by the operator; dispatched 0; deferred 1: API3 (the pass was stopped before it was briefed); drafts skipped 1: API2 (only the operator promotes a draft)'})
    const final = await waitForEvent((event) => event.type === 'chat.assistant.final' && event.data.conv === 'arch-pass' && event.data.turn_id === status.pass.turn_id, 'the cancelled turn', before)
    expect(final.data).toMatchObject({status: 'failed', reason: 'cancelled'})

    // A stop drops the wake kept while busy: no pass starts by itself now.
    const again = await meshJson(['architect', 'stop'])
    expect(again.code).toBe(1)
    expect(json(again).error.code).toBe('pass_not_running')
    const after = json(await meshJson(['architect', 'status']))
    expect(after.pass).toBeNull()
    expect(after.dispatchable.map((task: any) => task.id)).toEqual(['API4', 'API3'])
    expect(after.drafts).toEqual(['API2'])
  })

  it('mesh architect run refuses over the context budget and with the day’s budget spent, each a skipped wake', async () => {
    repo.write('.mesh/context/glossary.md', `---\ntitle: Glossary\nupdated: 2026-01-05\n---\n${'word '.repeat(3200)}\n`)
    const over = await meshJson(['architect', 'run'])
    expect(over.code).toBe(1)
    expect(json(over).error.code).toBe('context_over_budget')
    repo.remove('.mesh/context/glossary.md')

    // The developer's turn reported $0.50: a limit below that spends the day.
    expect((await mesh(['team', 'budget', '0.1'])).code).toBe(0)
    const spent = await meshJson(['architect', 'run'])
    expect(spent.code).toBe(1)
    expect(json(spent).error.code).toBe('budget_exhausted')
    expect((await mesh(['team', 'budget', 'off'])).code).toBe(0)
  })

  it('with architect.auto off a task that becomes dispatchable is a skipped wake; nothing dispatchable refuses a run', async () => {
    repo.write('.mesh/public/cluster.yaml', stringify({...CLUSTER, architect: {auto: false, min_interval_seconds: 0}}))
    await waitForEvent((event) => event.type === 'cluster.updated', 'cluster.updated')
    // The daemon re-reads cluster.yaml on that event: wait until it answers with the new setting.
    for (let read = 0; (await http('GET', '/architect')).body.auto !== false; read++) expect(read).toBeLessThan(500)
    expect((await mesh(['task', 'move', 'API4', 'backlog'])).code).toBe(0)
    expect((await mesh(['task', 'move', 'API3', 'backlog'])).code).toBe(0)
    const before = events.length
    expect((await mesh(['task', 'move', 'API4', 'next'])).code).toBe(0)
    const off = await waitForEvent((event) => event.type === 'architect.wake', 'the wake with auto off', before)
    expect(off.data).toMatchObject({trigger: 'auto', outcome: 'skipped', reason: 'auto_off', tasks: ['API4']})

    expect((await mesh(['task', 'move', 'API4', 'backlog'])).code).toBe(0)
    const nothing = await meshJson(['architect', 'run'])
    expect(nothing.code).toBe(1)
    expect(json(nothing).error.code).toBe('nothing_dispatchable')
    expect(json(nothing).error.message).toContain('1 draft(s) wait for the operator')
  })

  it('a run whose pass cannot start is a failed wake; a run that starts one hands the tasks in order and, with no brief, defers them', async () => {
    expect((await mesh(['task', 'move', 'API4', 'next'])).code).toBe(0)
    expect((await mesh(['task', 'move', 'API3', 'next'])).code).toBe(0)
    const card = repo.read('.mesh/team/architect.md')
    repo.write('.mesh/team/architect.md', '---\nid: architect\ntitle: [broken\n---\nYou coordinate.\n')
    const failed = await meshJson(['architect', 'run'])
    expect(failed.code).toBe(1)
    expect(json(failed).error.code).toBe('member_malformed')
    repo.write('.mesh/team/architect.md', card)

    const before = events.length
    const run = await meshJson(['architect', 'run'])
    expect(run.code, run.stderr).toBe(0)
    const pass = json(run)
    expect(pass).toMatchObject({trigger: 'run', conv: 'arch-pass', status: 'running', dispatchable: ['API4', 'API3'], drafts: 1})
    const ended = await waitForEvent((event) => event.type === 'architect.pass.ended' && event.data.pass_id === pass.pass_id, 'the end of the run', before)
    expect(ended.data).toMatchObject({status: 'done', decisions: 'decisions: dispatched 0; deferred 2: API4, API3 (not briefed in this pass); drafts skipped 1: API2 (only the operator promotes a draft)'})
    const shown = await mesh(['architect', 'status'])
    expect(shown.stdout).toContain(`Pass ${pass.pass_id} (run) done at`)
    expect(shown.stdout).toContain(ended.data.decisions)
  })

  it('keeps each pass in the timeline and the thread of arch-pass', async () => {
    // The events above were published as the lines were appended; `mesh chat show` reads the files back.
    const shown = await meshJson(['chat', 'show', 'arch-pass'])
    expect(shown.code, shown.stderr).toBe(0)
    const entries = shown.stdout.trim().split('\n').map((line) => JSON.parse(line) as {type: string; status?: string; decisions?: string}).slice(1)
    expect(entries.filter((entry) => entry.type === 'architect.pass.started')).toHaveLength(3)
    expect(entries.filter((entry) => entry.type === 'architect.pass.ended').map((entry) => entry.status)).toEqual(['done', 'stopped', 'done'])
    const days = readdirSync(join(repo.root, '.mesh', 'timeline'))
    const lines = days.flatMap((day) => readFileSync(join(repo.root, '.mesh', 'timeline', day), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
    expect(lines.filter((line) => line.type === 'architect.pass.ended').every((line) => line.author === 'daemon' && line.text === line.decisions && /^decisions: /.test(line.decisions))).toBe(true)
  })

  it('puts every tag where it belongs in the debug stream', async () => {
    const tail = (await http('GET', '/debug/tail?tag=architect-wake,ux,architect.pass&last=1800')).body.events as Array<{tag: string; msg: string; data?: any}>
    const tags = new Set(tail.map((event) => event.tag))
    for (const tag of ['architect-wake', 'architect-wake.skipped', 'architect-wake.failed', 'ux.run-all', 'ux.stop-architect', 'architect.pass']) expect(tags, tag).toContain(tag)
    const reasons = new Set(tail.filter((event) => event.tag === 'architect-wake.skipped').map((event) => event.data.reason))
    expect([...reasons].sort()).toEqual(['auto_off', 'budget_exhausted', 'busy', 'context_over_budget', 'nothing_dispatchable'])
    // Every wake said first that it woke: as many architect-wake lines as outcomes (started, skipped, failed).
    const woken = tail.filter((event) => event.tag === 'architect-wake').length
    const outcomes = tail.filter((event) => event.tag === 'architect-wake.skipped' || event.tag === 'architect-wake.failed' || (event.tag === 'architect.pass' && event.data?.trigger)).length
    expect(woken).toBe(outcomes)
    expect(tail.filter((event) => event.tag === 'ux.run-all')).toHaveLength(5)
    expect(tail.filter((event) => event.tag === 'ux.stop-architect')).toHaveLength(2)
    expect(tail.find((event) => event.tag === 'architect-wake.failed')!.msg).toMatch(/card of architect cannot be used/i)
  })
})
