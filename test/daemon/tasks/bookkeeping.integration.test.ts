/**
 * Issue 20, deliverable 5: every commit the daemon or the git-manager makes
 * for a task lands in the task's `commit_shas`, right after the commit (a
 * commit cannot hold its own SHA). With git.auto_commit the record is
 * committed as a follow-up commit, which is not recorded in turn.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {commitForMember} from '../../../src/daemon/chat/resolution/index.js'
import type {DaemonContext} from '../../../src/daemon/context.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {gitArea, type GitArea} from '../../../src/daemon/git/index.js'
import {recordCommit, tasksArea} from '../../../src/daemon/tasks/index.js'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {frontmatter} from '../../standard/fixtures.js'
import {git, GIT_ENV, makeGitProject} from '../git/git-fixture.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const TASK = '.mesh/modules/api/tasks/API1-first-task.md'
const POLL = {timeout: 15_000, interval: 25}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function start(autoCommit: boolean) {
  const project = makeGitProject({git: {auto_pull: false, auto_commit: autoCommit}, remote: false})
  cleanups.push(() => project.cleanup())
  project.repo.write('.mesh/team/git-manager.md', frontmatter({id: 'git-manager', title: 'Git manager', client: 'claude', model: 'opus', context: [], exposure: 'internal'}, '\nYou commit.\n'))
  git(project.root, 'add', '-A')
  git(project.root, 'commit', '-q', '-m', 'chore(team): the team [GEN1]')
  let git_: GitArea | undefined
  const harness: DaemonHarness = await startHarness({
    repo: project.repo,
    areas: [tasksArea, (context) => (git_ = gitArea(context, {env: GIT_ENV, commitWindowMs: 20}))],
  })
  cleanups.push(() => harness.running.stop())
  const context: DaemonContext = harness.running.daemon.context
  const events: DaemonEvent[] = []
  context.events.subscribe((event) => void events.push(event))
  const shas = () => (parseFrontmatter(project.repo.read(TASK)).data as {commit_shas?: string[]}).commit_shas ?? []
  const commits = () => git(project.root, 'log', '--format=%H %s').split('\n')
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(project.root, path)), {recursive: true})
    writeFileSync(join(project.root, path), text)
  }
  return {root: project.root, harness, context, events, area: () => git_!, shas, commits, write}
}

describe('commit_shas', () => {
  it("records the daemon's own commit of a transition and the git-manager's commit; the follow-up commits of the records are not recorded", async () => {
    const {root, harness, context, events, area, shas, commits, write} = await start(true)
    const moved = await harness.call('POST', '/tasks/API1/transition', {auth: true, body: JSON.stringify({status: 'active'})})
    expect(moved.status).toBe(200)

    // The daemon commits the move (A), then records A in the task, then commits that record (B).
    const committed = () => events.filter((e) => e.type === 'git.committed').map((e) => e.data as {sha: string; subject: string; tasks: string[]})
    await expect.poll(() => committed().length, POLL).toBe(2)
    const [a, b] = committed()
    expect(a).toMatchObject({subject: `chore(api): update modules/api/tasks/API1-first-task.md (task.transition) [API1]`, tasks: ['API1']})
    expect(b).toMatchObject({subject: `chore(api): update modules/api/tasks/API1-first-task.md (task.commit-shas) [API1]`, tasks: []})
    expect(shas()).toEqual([a.sha])
    expect(git(root, 'show', `${b.sha}:${TASK}`)).toContain(a.sha)
    expect(events.filter((e) => e.type === 'task.updated').map((e) => e.data)).toEqual([
      expect.objectContaining({id: 'API1', from: 'next', to: 'active', by: 'operator'}),
      {id: 'API1', path: TASK, module: 'api', from: 'active', to: 'active', dispatchable: true, completed_at: null, by: 'daemon'},
    ])

    // A member's commit for the task: G, recorded, the record committed as a follow-up (C), C not recorded.
    write('src/api/login.ts', 'export const login = 1\n')
    const outcome = await commitForMember(context, {member: 'git-manager', model: 'opus', subject: 'feat(api): add the login route', files: ['src/api/login.ts'], task: 'API1'})
    expect(outcome.state).toBe('committed')
    const g = (outcome as {sha: string}).sha
    await expect.poll(shas, POLL).toEqual([a.sha, g])
    await expect.poll(() => committed().length, POLL).toBe(3)
    expect(committed()[2]).toMatchObject({subject: expect.stringContaining('(task.commit-shas) [API1]'), tasks: []})
    // Nothing more waits to be committed: the loop stopped.
    expect(await area().flushCommits()).toBeNull()
    expect(git(root, 'status', '--porcelain', '--', TASK)).toBe('')
    expect(commits()).toHaveLength(2 + 4)
  })

  it('without auto_commit: the SHA of a git-manager commit is recorded, and the task file waits uncommitted like every daemon rewrite', async () => {
    const {root, context, shas, commits, write} = await start(false)
    write('src/api/login.ts', 'export const login = 1\n')
    const outcome = await commitForMember(context, {member: 'git-manager', model: 'opus', subject: 'feat(api): add the login route [API1]', files: ['src/api/login.ts']})
    const g = (outcome as {sha: string}).sha
    await expect.poll(shas, POLL).toEqual([g])
    expect(commits()).toHaveLength(3)
    expect(git(root, 'status', '--porcelain', '--', TASK)).toBe(`M ${TASK}`)

    // The same SHA is never listed twice; a commit for a task that does not exist is a warning, not a write.
    write('src/api/other.ts', 'x\n')
    await commitForMember(context, {member: 'git-manager', model: 'opus', subject: 'fix(api): other [API99]', files: ['src/api/other.ts']})
    await expect
      .poll(() => context.debug.tail({lastSecs: 3600, tags: ['tasks.commit-shas']}).events.map((event) => event.msg), POLL)
      .toEqual([expect.stringMatching(/^API1: recorded commit /), expect.stringMatching(/^commit [0-9a-f]{12} not recorded in API99: task_not_found/)])
    await recordCommit(context, 'API1', g)
    expect(shas()).toEqual([g])
  })
})
