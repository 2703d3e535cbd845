import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {Daemon} from '../../../src/daemon/daemon.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {gitArea, type GitArea, type GitAreaOptions} from '../../../src/daemon/git/index.js'
import {checkCommitMessage} from '../../../src/standard/validate/commits.js'
import {makeRepo, taskFile} from '../../standard/fixtures.js'
import {daemonFor, git, GIT_ENV, makeGitProject, type GitProject} from './git-fixture.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TASK = 'modules/api/tasks/API1-first-task.md'

/** A project with auto_commit on; the batch window is long so each test flushes when it means to. */
async function setup(project: GitProject | {root: string; cleanup(): void}, options: GitAreaOptions = {}): Promise<{daemon: Daemon; area: GitArea; events: DaemonEvent[]; root: string}> {
  cleanups.push(() => project.cleanup())
  const daemon = await daemonFor(project)
  const area = gitArea(daemon.context, {env: GIT_ENV, commitWindowMs: 60_000, ...options})
  cleanups.push(() => daemon.service.close())
  cleanups.push(() => area.close?.())
  await area.start?.()
  await area.pullNow()
  const events: DaemonEvent[] = []
  daemon.context.events.subscribe((event) => void events.push(event))
  return {daemon, area, events, root: project.root}
}

const autoCommit = () => makeGitProject({git: {auto_commit: true}})
const headFiles = (root: string) => git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean)
const staged = (root: string) => git(root, 'diff', '--cached', '--name-only').split('\n').filter(Boolean)

describe('git area: auto-commit', () => {
  it("commits exactly the daemon's write, as a Conventional Commit with the daemon's trailers, and leaves the user's staged file staged", async () => {
    const {daemon, area, events, root} = await setup(autoCommit())
    writeFileSync(join(root, 'mesh.json'), '{"mesh_version": 1}\n')
    git(root, 'add', 'mesh.json')
    writeFileSync(join(root, 'UNSTAGED.md'), 'mine\n')

    await daemon.context.writer.write(TASK, taskFile({status: 'active'}), {reason: 'task.transition'})
    const outcome = await area.flushCommits()
    expect(outcome).toMatchObject({state: 'committed', files: [`.mesh/${TASK}`]})

    const message = git(root, 'log', '-1', '--format=%B')
    expect(message).toBe(`chore(api): update ${TASK} (task.transition) [API1]\n\nWritten by the mesh daemon:\n- .mesh/${TASK} (task.transition)\n\nAgent: daemon\nModel: none`)
    expect(message).not.toMatch(/co-authored-by/i)
    expect(checkCommitMessage({sha: 'HEAD', message}).filter((finding) => finding.severity === 'error')).toEqual([])
    expect(headFiles(root)).toEqual([`.mesh/${TASK}`])
    expect(git(root, 'show', `HEAD:.mesh/${TASK}`)).toContain('status: active')
    expect(staged(root)).toEqual(['mesh.json'])
    expect(git(root, 'status', '--porcelain', '--', `.mesh/${TASK}`)).toBe('')
    expect(events.find((event) => event.type === 'git.committed')?.data).toMatchObject({sha: git(root, 'rev-parse', 'HEAD'), files: [`.mesh/${TASK}`]})
    expect(area.warnings?.()).toEqual([])
  })

  it('batches the writes of one window into one commit, and commits a new file too', async () => {
    const {daemon, area, root} = await setup(autoCommit(), {commitWindowMs: 20})
    const committed = new Promise<DaemonEvent>((resolve) => daemon.context.events.subscribe((event) => void (event.type === 'git.committed' && resolve(event))))
    const before = git(root, 'rev-parse', 'HEAD')
    await daemon.context.writer.write('modules/api/README.md', '# api\n\nMore.\n', {reason: 'docs.edit'})
    await daemon.context.writer.write('modules/api/tasks/API2-new.md', taskFile({id: 'API2', title: 'New'}), {reason: 'task.create'})
    await committed
    expect(git(root, 'rev-parse', 'HEAD~1')).toBe(before)
    expect(headFiles(root).sort()).toEqual(['.mesh/modules/api/README.md', '.mesh/modules/api/tasks/API2-new.md'])
    expect(git(root, 'log', '-1', '--format=%s')).toBe('chore(api): update 2 files (docs.edit, task.create)')
  })

  it('never commits a deny-listed or ignored file', async () => {
    const {daemon, area, root} = await setup(autoCommit())
    const before = git(root, 'rev-parse', 'HEAD')
    await daemon.context.writer.write('roadmap/state.json', '{}\n', {reason: 'roadmap.render'})
    await daemon.context.writer.write('.runtime/scratch.json', '{}\n', {reason: 'test'})
    expect(await area.flushCommits()).toBeNull()
    // Rewriting a committed file keeps a snapshot under .mesh/snapshots/: the snapshot stays out of the commit.
    await daemon.context.writer.write(TASK, taskFile({status: 'active'}), {reason: 'task.transition'})
    expect(await area.flushCommits()).toMatchObject({state: 'committed'})
    expect(headFiles(root)).toEqual([`.mesh/${TASK}`])
    expect(git(root, 'log', '--format=%H', `${before}..HEAD`).split('\n')).toHaveLength(1)
    expect(git(root, 'ls-files', '.mesh/snapshots', '.mesh/roadmap/state.json', '.mesh/.runtime')).toBe('')
    const denied = daemon.context.debug.tail({lastSecs: 3600, tags: ['git.commit']}).events.map((event) => event.msg)
    expect(denied).toContain('.mesh/roadmap/state.json is on the deny-list: not committed')

    writeFileSync(join(root, '.gitignore'), `${git(root, 'show', 'HEAD:.gitignore')}\n.mesh/private/\n`)
    await daemon.context.writer.write('private/notes.md', 'mine\n', {reason: 'test'})
    expect(await area.flushCommits()).toMatchObject({state: 'nothing', message: 'every file is ignored by .gitignore'})
  })

  it('takes a file name with glob characters literally', async () => {
    const {daemon, area, root} = await setup(autoCommit())
    // The user's own change to notes1.md, which the pattern `notes[12].md` would match as a glob.
    writeFileSync(join(root, '.mesh/docs/notes1.md'), 'mine\n')
    git(root, 'add', '.mesh/docs/notes1.md')
    await daemon.context.writer.write('docs/notes[12].md', 'daemon\n', {reason: 'test'})
    expect(await area.flushCommits()).toMatchObject({state: 'committed', files: ['.mesh/docs/notes[12].md']})
    expect(headFiles(root)).toEqual(['.mesh/docs/notes[12].md'])
    expect(staged(root)).toEqual(['.mesh/docs/notes1.md'])
  })

  it('does not commit when git.auto_commit is off (the default)', async () => {
    const {daemon, area, root} = await setup(makeGitProject())
    const before = git(root, 'rev-parse', 'HEAD')
    await daemon.context.writer.write(TASK, taskFile({status: 'active'}), {reason: 'task.transition'})
    expect(await area.flushCommits()).toBeNull()
    expect(git(root, 'rev-parse', 'HEAD')).toBe(before)
  })

  it('reports a commit it cannot make on /health warnings, and never throws', async () => {
    const repo = makeRepo({'.mesh/public/cluster.yaml': 'id: demo\ngit:\n  auto_pull: false\n  auto_commit: true\n'})
    const {daemon, area} = await setup(repo)
    await daemon.context.writer.write(TASK, taskFile({status: 'active'}), {reason: 'task.transition'})
    expect(await area.flushCommits()).toMatchObject({state: 'failed', message: 'the project is not a git repository'})
    expect(area.warnings?.()).toEqual([`git commit: the project is not a git repository (.mesh/${TASK} left uncommitted)`])
  })

  it('commits a write made just before the daemon stops', async () => {
    const {daemon, area, root} = await setup(autoCommit())
    await daemon.context.writer.write(TASK, taskFile({status: 'active'}), {reason: 'task.transition'})
    await area.close?.()
    expect(headFiles(root)).toEqual([`.mesh/${TASK}`])
  })
})
