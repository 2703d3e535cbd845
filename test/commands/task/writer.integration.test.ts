/**
 * Issue 20, deliverable 2, through the real binary: the commands that write
 * under `.mesh/` go through the running daemon when there is one and write
 * locally when there is none — either way with the daemon's rules (the
 * operator-only draft rule, `--by` from a turn's MESH_MEMBER), a snapshot
 * `mesh daemon restore` can undo, and one `task.updated` shape.
 */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'

let server: SpawnedCli | undefined
let socket: WebSocket | undefined
afterEach(async () => {
  socket?.terminate()
  socket = undefined
  await server?.stop()
  server = undefined
})

const DRAFT = '.mesh/modules/general/tasks/GEN1-an-idea.md'
const UPDATED_KEYS = ['by', 'completed_at', 'dispatchable', 'from', 'id', 'module', 'path', 'to']

/** A scaffolded project (base team of five) with one draft task, GEN1. */
async function projectWithDraft(): Promise<{root: string; mesh: (args: string[], env?: NodeJS.ProcessEnv) => ReturnType<typeof runCli>}> {
  const root = await tempProject()
  const mesh = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli([...args, '--dir', root], {env})
  expect(json(await mesh(['task', 'create', '-m', 'general', '-t', 'An idea', '--status', 'draft', '--json'])).id).toBe('GEN1')
  return {root, mesh}
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')
const statusOf = (root: string, path: string) => (parseFrontmatter(read(root, path)).data as {status: string}).status
/** The snapshot index lines of one file, oldest first. */
const snapshotsOf = (root: string, path: string): Array<{ts: string; snapshot: string; reason: string}> => {
  const dir = join(root, '.mesh/snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((day) => readFileSync(join(dir, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
    .filter((record) => record.path === path.replace(/^\.mesh\//, ''))
}

async function serve(root: string): Promise<{events: Array<{type: string; data: any}>}> {
  server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root})
  const url = (await server.nextJson()).url as string
  const token = read(root, '.mesh/credentials/portal-token').trim()
  const events: Array<{type: string; data: any}> = []
  socket = new WebSocket(`${url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${token}`}})
  socket.on('message', (data) => events.push(JSON.parse(String(data))))
  await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject))
  return {events}
}

describe('mesh task move: the draft rule and --by', () => {
  it('without a daemon: a member (MESH_MEMBER of a turn) cannot take a task out of draft; the operator can, and the move leaves a snapshot restore undoes', async () => {
    const {root, mesh} = await projectWithDraft()
    const draft = read(root, DRAFT)

    const refused = await mesh(['task', 'move', 'GEN1', 'next', '--json'], {MESH_MEMBER: 'developer'})
    expect(refused.code).toBe(1)
    expect(json(refused).error).toMatchObject({code: 'operator_only', message: expect.stringMatching(/GEN1 is a draft: only the operator takes a task out of draft/)})
    for (const status of ['done', 'blocked']) expect((await mesh(['task', 'move', 'GEN1', status, '--by', 'developer'])).code, status).toBe(1)
    expect(read(root, DRAFT)).toBe(draft)

    // In a turn, --by names that turn's member only: an agent does not speak as the operator.
    const impersonating = await mesh(['task', 'move', 'GEN1', 'next', '--by', 'operator', '--json'], {MESH_MEMBER: 'developer'})
    expect(impersonating.code).toBe(2)
    expect(json(impersonating).error.code).toBe('usage_by_not_turn_member')
    const ghost = await mesh(['task', 'move', 'GEN1', 'next', '--by', 'ghost', '--json'])
    expect([ghost.code, json(ghost).error.code]).toEqual([1, 'unknown_member'])
    expect(read(root, DRAFT)).toBe(draft)

    const promoted = await mesh(['task', 'move', 'GEN1', 'next', '--json'])
    expect(promoted.code).toBe(0)
    expect(json(promoted)).toMatchObject({id: 'GEN1', module: 'general', from: 'draft', to: 'next', dispatchable: true, changed: true, by: 'operator', via: 'local'})
    expect(statusOf(root, DRAFT)).toBe('next')
    // The local write kept the bytes it replaced, as the daemon does.
    const [kept] = snapshotsOf(root, DRAFT)
    expect(kept).toMatchObject({reason: 'task.transition'})
    expect(read(root, `.mesh/${kept.snapshot}`)).toBe(draft)

    const restored = await mesh(['daemon', 'restore', DRAFT, '--json'])
    expect(json(restored)).toMatchObject({via: 'local', restored: {ts: kept.ts}})
    expect(read(root, DRAFT)).toBe(draft)
  })

  it('with the daemon running: the same rules through it, and task.updated on /events has the fields the command prints', async () => {
    const {root, mesh} = await projectWithDraft()
    const {events} = await serve(root)
    const draft = read(root, DRAFT)

    const refused = await mesh(['task', 'move', 'GEN1', 'next', '--json'], {MESH_MEMBER: 'architect'})
    expect([refused.code, json(refused).error.code]).toEqual([1, 'operator_only'])
    expect(read(root, DRAFT)).toBe(draft)

    const promoted = json(await mesh(['task', 'move', 'GEN1', 'next', '--json']))
    expect(promoted).toMatchObject({from: 'draft', to: 'next', by: 'operator', via: 'daemon'})
    await expect.poll(() => events.filter((e) => e.type === 'task.updated').length, {timeout: 10_000}).toBe(1)
    const announced = events.find((e) => e.type === 'task.updated')!.data
    expect(Object.keys(announced).sort()).toEqual(UPDATED_KEYS)
    const {changed: _changed, via: _via, ...printed} = promoted
    expect(announced).toEqual(printed)

    // A member's move of a task that is not a draft goes through, by that member.
    const started = json(await mesh(['task', 'move', 'GEN1', 'active', '--json'], {MESH_MEMBER: 'developer'}))
    expect(started).toMatchObject({from: 'next', to: 'active', by: 'developer', via: 'daemon'})
    // A hand edit is announced by the watcher in the same shape, by "file".
    writeFileSync(join(root, DRAFT), read(root, DRAFT).replace('status: active', 'status: blocked'))
    await expect.poll(() => events.filter((e) => e.type === 'task.updated' && e.data.by === 'file').map((e) => e.data), {timeout: 10_000}).toEqual([
      {id: 'GEN1', path: DRAFT, module: 'general', from: 'active', to: 'blocked', dispatchable: false, completed_at: null, by: 'file'},
    ])

    // Every move through the daemon left its snapshot; restore (through the daemon) undoes the last.
    expect(snapshotsOf(root, DRAFT).map((record) => record.reason)).toEqual(['task.transition', 'task.transition'])
    const beforeRestore = read(root, DRAFT)
    const restored = json(await mesh(['daemon', 'restore', DRAFT, '--json']))
    expect(restored.via).toBe('daemon')
    expect(statusOf(root, DRAFT)).toBe('next')
    expect(read(root, `.mesh/${restored.undo.snapshot}`)).toBe(beforeRestore)
  })
})

describe('every command that writes under .mesh/ goes through the running daemon', () => {
  it('task create, initiative create, roadmap build, standard migrate and render --resources answer via: daemon and write what they wrote locally', async () => {
    const {root, mesh} = await projectWithDraft()
    const {events} = await serve(root)
    const created = json(await mesh(['task', 'create', '-m', 'general', '-t', 'Through the daemon', '--json'], {MESH_MEMBER: 'developer'}))
    expect(created).toMatchObject({id: 'GEN2', via: 'daemon'})
    expect(statusOf(root, created.path)).toBe('backlog')
    await expect.poll(() => events.find((e) => e.type === 'task.created')?.data, {timeout: 10_000}).toEqual({id: 'GEN2', path: created.path, module: 'general', status: 'backlog', by: 'developer'})

    const initiative = json(await mesh(['initiative', 'create', '-t', 'Launch', '--json']))
    expect(initiative).toMatchObject({id: 'launch', path: '.mesh/roadmap/initiatives/launch.md', via: 'daemon'})
    expect(existsSync(join(root, initiative.path))).toBe(true)
    await expect.poll(() => events.find((e) => e.type === 'initiative.created')?.data, {timeout: 10_000}).toEqual({id: 'launch', path: '.mesh/roadmap/initiatives/launch.md', by: 'operator'})
    const taken = await mesh(['initiative', 'create', '-t', 'Launch', '--id', 'launch', '--json'])
    expect([taken.code, json(taken).error.code]).toEqual([1, 'initiative_exists'])

    const built = json(await mesh(['roadmap', 'build', '--json']))
    expect(built).toMatchObject({via: 'daemon', tasks: 2, initiatives: 1})
    expect(JSON.parse(read(root, '.mesh/roadmap/state.json')).totals.tasks).toBe(2)

    writeFileSync(join(root, '.mesh/STANDARD_VERSION'), '36\n')
    expect(json(await mesh(['standard', 'migrate', '--json']))).toMatchObject({via: 'daemon', from: 36, to: 38, bumped: true})
    expect(read(root, '.mesh/STANDARD_VERSION')).toBe('38\n')

    writeFileSync(join(root, 'canonical.md'), '# The network\n\n- Hub: https://hub.example.com\n')
    const rendered = json(await mesh(['render', '--resources', join(root, 'canonical.md'), '--json']))
    expect(rendered.via).toBe('daemon')
    expect(read(root, '.mesh/public/RESOURCES.md')).toMatch(/^# The network\n\n- Hub: https:\/\/hub\.example\.com\n<!-- mesh:resources:end -->/)
    expect(snapshotsOf(root, '.mesh/public/RESOURCES.md')).toEqual([expect.objectContaining({reason: 'render.resources'})])
  })
})

describe('mesh task archive', () => {
  it('archives done tasks by the month of completed_at; the next task never reuses an archived id', async () => {
    const {root, mesh} = await projectWithDraft()
    expect(json(await mesh(['task', 'create', '-m', 'general', '-t', 'Second', '--json'])).id).toBe('GEN2')
    await mesh(['task', 'move', 'GEN2', 'done'])
    const completed = (parseFrontmatter(read(root, '.mesh/modules/general/tasks/GEN2-second.md')).data as {completed_at: string}).completed_at

    const recent = await mesh(['task', 'archive'])
    expect(recent.stdout).toBe('No done task completed 30d ago or more to archive.\n')
    const archived = await mesh(['task', 'archive', '--older-than', '0', '--json'])
    expect(archived.code).toBe(0)
    const month = completed.slice(0, 7)
    expect(json(archived)).toEqual({archived: [{id: 'GEN2', module: 'general', from: '.mesh/modules/general/tasks/GEN2-second.md', to: `.mesh/modules/general/log/${month}/GEN2-second.md`, completed_at: completed}], skipped: [], via: 'local'})
    expect(existsSync(join(root, '.mesh/modules/general/tasks/GEN2-second.md'))).toBe(false)

    // GEN2, the highest id, is archived: create goes on at GEN3; show still finds the archived task.
    expect(json(await mesh(['task', 'create', '-m', 'general', '-t', 'Third', '--json'])).id).toBe('GEN3')
    expect(json(await mesh(['task', 'show', 'GEN2', '--json'])).archived).toBe(true)
    const bad = await mesh(['task', 'archive', '--older-than', 'a month'])
    expect(bad.code).toBe(2)
    expect(bad.errorText).toMatch(/--older-than takes a number of days/)
    const validated = json(await runCli(['validate', root, '--json']))
    expect(validated.findings).toEqual([])
  })
})
