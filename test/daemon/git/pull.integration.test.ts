import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server, type Socket} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import type {Daemon} from '../../../src/daemon/daemon.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {gitArea, type GitArea, type GitAreaOptions} from '../../../src/daemon/git/index.js'
import {makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {daemonFor, git, GIT_ENV, makeGitProject, type GitProject} from './git-fixture.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Setup {
  project: GitProject
  daemon: Daemon
  area: GitArea
  events: DaemonEvent[]
  pullLines(): string[]
}

async function setup(project: GitProject, options: GitAreaOptions = {}): Promise<Setup> {
  cleanups.push(() => project.cleanup())
  const daemon = await daemonFor(project)
  const area = gitArea(daemon.context, {env: GIT_ENV, ...options})
  cleanups.push(() => daemon.service.close())
  cleanups.push(() => area.close?.())
  const events: DaemonEvent[] = []
  daemon.context.events.subscribe((event) => void events.push(event))
  const pullLines = () => daemon.context.debug.tail({lastSecs: 3600, tags: ['git.pull']}).events.map((event) => event.msg)
  return {project, daemon, area, events, pullLines}
}

describe('git area: pull', () => {
  it('fast-forwards at start to a commit pushed elsewhere, and says so', async () => {
    const {project, area, events, pullLines} = await setup(makeGitProject())
    const sha = project.pushFromElsewhere('NOTES.md', 'from a teammate\n')
    await area.start?.()
    const outcome = await area.pullNow()
    expect(outcome).toMatchObject({state: 'pulled', branch: 'main', upstream: 'origin/main', to: sha, commits: 1})
    expect(readFileSync(join(project.root, 'NOTES.md'), 'utf8')).toBe('from a teammate\n')
    expect(git(project.root, 'rev-parse', 'HEAD')).toBe(sha)
    expect(events.find((event) => event.type === 'git.pulled')?.data).toMatchObject({branch: 'main', upstream: 'origin/main', to: sha, commits: 1})
    expect(pullLines().some((line) => line.includes('fast-forwarded main by 1 commit'))).toBe(true)
    expect(area.warnings?.()).toEqual([])
  })

  it('pulls again on its interval', async () => {
    const {project, area, events} = await setup(makeGitProject(), {pullIntervalMs: 25})
    await area.start?.()
    await area.pullNow()
    const pulled = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (events.some((event) => event.type === 'git.pulled')) {
          clearInterval(timer)
          resolve()
        }
      }, 10)
    })
    const sha = project.pushFromElsewhere('LATER.md', 'later\n')
    await pulled
    expect(git(project.root, 'rev-parse', 'HEAD')).toBe(sha)
  })

  it('does not pull over uncommitted changes, and warns', async () => {
    const {project, area, pullLines} = await setup(makeGitProject())
    const before = git(project.root, 'rev-parse', 'HEAD')
    project.pushFromElsewhere('NOTES.md', 'from a teammate\n')
    writeFileSync(join(project.root, 'mesh.json'), '{"mesh_version": 1}\n')
    expect(await area.pullNow()).toMatchObject({state: 'blocked', reason: 'dirty'})
    expect(git(project.root, 'rev-parse', 'HEAD')).toBe(before)
    expect(existsSync(join(project.root, 'NOTES.md'))).toBe(false)
    expect(readFileSync(join(project.root, 'mesh.json'), 'utf8')).toBe('{"mesh_version": 1}\n')
    expect(area.warnings?.()).toEqual(['git pull: 1 commit wait on origin/main, but the work tree has uncommitted changes; commit or stash them, then pull'])
    expect(pullLines().at(-1)).toMatch(/^not pulled: 1 commit wait on origin\/main/)
  })

  it('reports a diverged branch and leaves both sides alone', async () => {
    const {project, area} = await setup(makeGitProject())
    project.pushFromElsewhere('NOTES.md', 'remote\n')
    writeFileSync(join(project.root, 'LOCAL.md'), 'local\n')
    git(project.root, 'add', 'LOCAL.md')
    git(project.root, 'commit', '-q', '-m', 'docs(project): local [GEN1]')
    const local = git(project.root, 'rev-parse', 'HEAD')
    expect(await area.pullNow()).toMatchObject({state: 'blocked', reason: 'diverged'})
    expect(git(project.root, 'rev-parse', 'HEAD')).toBe(local)
    expect(area.warnings?.()).toEqual(['git pull: main and origin/main have diverged (1 local commit, 1 remote commit); merge or rebase by hand'])
  })

  it('takes a repository without a remote calmly; reports a branch without upstream and a detached HEAD', async () => {
    const lonely = await setup(makeGitProject({remote: false}))
    expect(await lonely.area.pullNow()).toMatchObject({state: 'blocked', reason: 'no_remote'})
    // A local repository is calm: no /health warning, one info line.
    expect(lonely.area.warnings?.()).toEqual([])

    const noUpstream = await setup(makeGitProject())
    git(noUpstream.project.root, 'checkout', '-q', '-b', 'feature')
    expect(await noUpstream.area.pullNow()).toMatchObject({state: 'blocked', reason: 'no_upstream'})
    expect(noUpstream.area.warnings?.()[0]).toContain('branch feature has no upstream')

    const detached = await setup(makeGitProject())
    git(detached.project.root, 'checkout', '-q', '--detach', 'HEAD')
    expect(await detached.area.pullNow()).toMatchObject({state: 'blocked', reason: 'detached_head'})
    expect(detached.area.warnings?.()).toEqual(['git pull: HEAD is detached; the daemon only pulls a checked-out branch'])
  })

  it('reports a project that is not a git repository, on /health too', async () => {
    const repo = makeRepo()
    let area: GitArea | undefined
    const harness: DaemonHarness = await startHarness({repo, areas: [(context) => (area = gitArea(context, {env: GIT_ENV}))]})
    cleanups.push(() => harness.close())
    expect(await area!.pullNow()).toMatchObject({state: 'blocked', reason: 'not_a_repository'})
    const health = await harness.call('GET', '/health')
    expect(health.status).toBe(200)
    expect(health.body.warnings).toContain('git pull: the project is not a git repository (set git.auto_pull: false in cluster.yaml if it is not meant to be)')
  })

  it('reports a remote that is gone, and one that never answers, within the timeout', async () => {
    const gone = await setup(makeGitProject())
    git(gone.project.root, 'remote', 'set-url', 'origin', join(gone.project.root, 'no-such-remote.git'))
    expect(await gone.area.pullNow()).toMatchObject({state: 'blocked', reason: 'fetch_failed'})
    expect(gone.area.warnings?.()[0]).toMatch(/^git pull: fetching origin\/main failed: /)

    // A TCP server that accepts and never answers: git waits until the daemon's timeout kills it.
    const sockets = new Set<Socket>()
    const silent: Server = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => silent.close(() => resolve()))
    })
    const port = (silent.address() as {port: number}).port
    const hung = await setup(makeGitProject(), {timeoutMs: 300})
    git(hung.project.root, 'remote', 'set-url', 'origin', `git://127.0.0.1:${port}/origin.git`)
    expect(await hung.area.pullNow()).toMatchObject({state: 'blocked', reason: 'fetch_failed', message: 'fetching origin/main failed: timed out'})
  })

  it('does nothing when git.auto_pull is false', async () => {
    const {project, area} = await setup(makeGitProject({git: {auto_pull: false}}))
    project.pushFromElsewhere('NOTES.md', 'remote\n')
    await area.start?.()
    expect(await area.pullNow()).toBeNull()
    expect(existsSync(join(project.root, 'NOTES.md'))).toBe(false)
    expect(area.warnings?.()).toEqual([])
  })
})
