import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {locateAnchor, resolveTask} from '../../../../src/daemon/chat/resolution/index.js'
import type {Marker} from '../../../../src/daemon/chat/types.js'
import type {DaemonEvent} from '../../../../src/protocol/events.js'
import {parseFrontmatter, splitFrontmatter} from '../../../../src/standard/frontmatter.js'
import {frontmatter, makeRepo, taskFile} from '../../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {turnFinal} from './final-fixture.js'

const NOW = Date.parse('2026-03-04T05:06:07.890Z')
const TASK = '.mesh/modules/api/tasks/API1-first-task.md'
const DRAFT = '.mesh/modules/api/tasks/API2-draft.md'
const REOPENED = '.mesh/modules/api/tasks/API3-reopened.md'
const BODY = '\n## Scope\r\n\nOdd  bytes\t here — ✓\n\n## Done when\n\n- Tests pass.\n'
const card = (id: string, title: string) => frontmatter({id, title, client: 'claude', model: 'opus', context: [], exposure: 'internal'}, `\nYou are the ${title}.\n`)
const done: Marker = {kind: 'report', data: {status: 'done', summary: 'Route added.'}}

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

async function start() {
  const repo = makeRepo({
    [TASK]: taskFile({status: 'active', initiative: 'launch'}, BODY),
    [DRAFT]: taskFile({id: 'API2', title: 'Draft', status: 'draft'}),
    [REOPENED]: taskFile({id: 'API3', title: 'Reopened', status: 'next'}, '\n## Scope\n\nS.\n\n## Resolution\n\nAn earlier try.\n\n## Files\n\n- a.ts\n'),
    '.mesh/team/developer.md': card('developer', 'Developer'),
    '.mesh/team/git-manager.md': card('git-manager', 'Git manager'),
  })
  harness = await startHarness({repo, areas: [], clock: () => NOW})
  const context = harness.running.daemon.context
  const events: DaemonEvent[] = []
  context.events.subscribe((event) => void events.push(event))
  const debug = () => context.debug.tail({lastSecs: 3600, tags: ['chat.resolution']}).events
  return {h: harness, context, events, debug}
}

const dataOf = (text: string) => parseFrontmatter(text).data as Record<string, unknown>

function snapshotsOf(root: string): Array<{path: string; reason: string}> {
  const dir = join(root, '.mesh/snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((day) => readFileSync(join(dir, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
}

describe('resolveTask', () => {
  it('moves the anchored task to done in one write: the three stamps, ## Resolution from the final text, the body otherwise byte-identical', async () => {
    const {h, context, events, debug} = await start()
    const outcome = await resolveTask(context, turnFinal({text: '  Added POST /login.\n\nTests pass.  ', markers: [done]}))
    expect(outcome).toEqual({state: 'resolved', task: 'API1', path: TASK, completed_at: '2026-03-04T05:06:07Z', member: 'developer', conv: 'c-0123456789ab'})

    const after = h.repo.read(TASK)
    expect(dataOf(after)).toMatchObject({
      id: 'API1',
      status: 'done',
      updated: '2026-03-04',
      completed_at: '2026-03-04T05:06:07Z',
      resolved_by: 'developer',
      resolved_by_conv: 'c-0123456789ab',
      initiative: 'launch',
      created: '2026-01-05',
    })
    expect(splitFrontmatter(after).body).toBe(`${BODY}\n## Resolution\n\nAdded POST /login.\n\nTests pass.\n`)
    // One write: one snapshot, with the transition's reason.
    expect(snapshotsOf(h.repo.root)).toEqual([expect.objectContaining({path: 'modules/api/tasks/API1-first-task.md', reason: 'task.transition'})])

    expect(events.filter((event) => event.type.startsWith('task.')).map((event) => [event.type, event.data])).toEqual([
      ['task.updated', {id: 'API1', from: 'active', to: 'done', path: TASK, module: 'api', dispatchable: false, completed_at: '2026-03-04T05:06:07Z', by: 'developer'}],
      ['task.completed', {author: 'developer', text: '#API1 done', task: 'API1', conv: 'c-0123456789ab', member: 'developer'}],
    ])
    expect(debug()).toEqual([expect.objectContaining({lvl: 'info', msg: 'API1 resolved by developer (active → done)', conv: 'c-0123456789ab', agent_id: 'developer'})])
  })

  it('stamps the profile the turn ran with (become) and the task the report names over the anchor', async () => {
    const {h, context} = await start()
    const outcome = await resolveTask(context, turnFinal({member: 'architect', profile: 'git-manager', anchor: {task: 'API9'}, markers: [{kind: 'report', data: {outcome: 'success', task: 'API1'}}]}))
    expect(outcome).toMatchObject({state: 'resolved', task: 'API1', member: 'git-manager'})
    expect(dataOf(h.repo.read(TASK))).toMatchObject({status: 'done', resolved_by: 'git-manager'})
  })

  it('leaves a task that is done already as it is: the first resolution is kept', async () => {
    const {h, context, events, debug} = await start()
    await resolveTask(context, turnFinal({text: 'First.', markers: [done]}))
    const first = h.repo.read(TASK)
    events.length = 0
    const again = await resolveTask(context, turnFinal({conv: 'c-ffffffffffff', profile: 'git-manager', text: 'Second.', markers: [done]}))
    expect(again).toEqual({state: 'already_done', task: 'API1', path: TASK})
    expect(h.repo.read(TASK)).toBe(first)
    expect(events).toEqual([])
    expect(debug().at(-1)).toMatchObject({lvl: 'debug', msg: 'API1 is done already: its resolution is kept'})
  })

  it('replaces the ## Resolution of a task reopened since, keeping the sections after it', async () => {
    const {h, context} = await start()
    await resolveTask(context, turnFinal({anchor: {task: 'API3'}, text: '# Fixed\n\nFor good this time.', markers: [done]}))
    expect(splitFrontmatter(h.repo.read(REOPENED)).body).toBe('\n## Scope\n\nS.\n\n## Resolution\n\n### Fixed\n\nFor good this time.\n\n## Files\n\n- a.ts\n')
  })

  it('does not let a member take a task out of draft: refused, logged, nothing written or published', async () => {
    const {h, context, events, debug} = await start()
    const before = h.repo.read(DRAFT)
    const outcome = await resolveTask(context, turnFinal({anchor: {task: 'API2'}, markers: [done]}))
    expect(outcome).toMatchObject({state: 'refused', task: 'API2', code: 'operator_only'})
    expect(h.repo.read(DRAFT)).toBe(before)
    expect(events).toEqual([])
    expect(debug()).toEqual([expect.objectContaining({lvl: 'warn', msg: expect.stringMatching(/^API2 not resolved: API2 is a draft: only the operator takes a task out of draft/), data: expect.objectContaining({code: 'operator_only'})})])
  })

  it('refuses unknown and archived tasks and a profile with no card', async () => {
    const {context} = await start()
    expect(await resolveTask(context, turnFinal({anchor: {task: 'API77'}, markers: [done]}))).toMatchObject({state: 'refused', code: 'task_not_found'})
    expect(await resolveTask(context, turnFinal({anchor: {task: 'API0'}, markers: [done]}))).toMatchObject({state: 'refused', code: 'task_archived'})
    expect(await resolveTask(context, turnFinal({profile: 'nobody', markers: [done]}))).toMatchObject({state: 'refused', code: 'unknown_member'})
  })

  it('writes nothing for a turn that did not finish its task', async () => {
    const {h, context, events} = await start()
    const before = h.repo.read(TASK)
    expect(await resolveTask(context, turnFinal({markers: []}))).toEqual({state: 'skipped', reason: 'no_report'})
    expect(await resolveTask(context, turnFinal({status: 'failed', reason: 'timeout', markers: [done]}))).toEqual({state: 'skipped', reason: 'turn_failed'})
    expect(h.repo.read(TASK)).toBe(before)
    expect(events).toEqual([])
  })
})

describe('locateAnchor', () => {
  it('takes the given task when it exists, with its initiative field when none is given', async () => {
    const {context} = await start()
    expect(await locateAnchor(context, {anchor: {task: 'API1'}, text: 'work on #API3'})).toEqual({initiative: 'launch', task: 'API1'})
    expect(await locateAnchor(context, {anchor: {initiative: 'other', task: 'api1'}, text: ''})).toEqual({initiative: 'other', task: 'API1'})
  })

  it('else the first #mention that names an active task; null when none does', async () => {
    const {context} = await start()
    expect(await locateAnchor(context, {anchor: {task: 'API77'}, text: 'See #launch and #API0 (archived), then #API3 and #API1'})).toEqual({task: 'API3'})
    expect(await locateAnchor(context, {text: 'nothing here but #launch'})).toBeNull()
    expect(await locateAnchor(context, {text: 'no mention'})).toBeNull()
  })
})
