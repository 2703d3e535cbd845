import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {commitForMember, resolutionHook} from '../../../../src/daemon/chat/resolution/index.js'
import type {Marker} from '../../../../src/daemon/chat/types.js'
import type {DaemonContext} from '../../../../src/daemon/context.js'
import type {DaemonEvent} from '../../../../src/protocol/events.js'
import {gitArea} from '../../../../src/daemon/git/index.js'
import {checkCommitMessage} from '../../../../src/standard/validate/commits.js'
import {parseFrontmatter} from '../../../../src/standard/frontmatter.js'
import {frontmatter} from '../../../standard/fixtures.js'
import {git, GIT_ENV, makeGitProject} from '../../git/git-fixture.js'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {turnFinal} from './final-fixture.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const card = (id: string, title: string, model = 'opus') => frontmatter({id, title, client: 'claude', model, context: [], exposure: 'internal'}, `\nYou are the ${title}.\n`)
const TASK = '.mesh/modules/api/tasks/API1-first-task.md'

/** A committed project with the given team, a daemon on it with the git area (the context's git runner). */
async function start(team: Record<string, string> = {developer: card('developer', 'Developer', 'sonnet'), 'git-manager': card('git-manager', 'Git manager')}) {
  const project = makeGitProject({git: {auto_pull: false}, remote: false})
  cleanups.push(() => project.cleanup())
  for (const [id, text] of Object.entries(team)) project.repo.write(`.mesh/team/${id}.md`, text)
  git(project.root, 'add', '-A')
  git(project.root, 'commit', '-q', '-m', 'chore(team): the team [GEN1]')
  const harness: DaemonHarness = await startHarness({repo: project.repo, areas: [(context) => gitArea(context, {env: GIT_ENV, commitWindowMs: 60_000})]})
  cleanups.push(() => harness.running.stop())
  const context: DaemonContext = harness.running.daemon.context
  const events: DaemonEvent[] = []
  context.events.subscribe((event) => void events.push(event))
  const debug = () => context.debug.tail({lastSecs: 3600, tags: ['chat.resolution']}).events
  return {root: project.root, context, events, debug}
}

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, '..'), {recursive: true})
  writeFileSync(join(root, path), text)
}
const headFiles = (root: string) => git(root, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean)
const staged = (root: string) => git(root, 'diff', '--cached', '--name-only').split('\n').filter(Boolean)
const codeOf = (promise: Promise<unknown>) => promise.then(() => null, (error: {code?: string}) => error.code)

describe('commitForMember', () => {
  it('commits exactly the named files with the member trailers; what else is staged stays staged', async () => {
    const {root, context, events} = await start()
    write(root, 'src/api/login.ts', 'export const login = 1\n')
    write(root, 'src/api/other.ts', 'export const other = 1\n')
    write(root, 'README.md', '# mine, staged\n')
    git(root, 'add', 'README.md')
    write(root, 'notes.txt', 'untracked, mine\n')

    const outcome = await commitForMember(context, {member: 'developer', model: 'sonnet', subject: 'feat(api): add the login route', body: 'Adds login.', files: ['./src/api/login.ts', 'src/api/other.ts'], task: 'API1'})
    expect(outcome).toMatchObject({state: 'committed', subject: 'feat(api): add the login route [API1]', files: ['src/api/login.ts', 'src/api/other.ts']})
    const sha = git(root, 'rev-parse', 'HEAD')
    expect(outcome).toMatchObject({sha})

    const message = git(root, 'log', '-1', '--format=%B')
    expect(message).toBe('feat(api): add the login route [API1]\n\nAdds login.\n\nAgent: developer\nModel: sonnet\nCo-authored-by: Developer (mesh developer) <developer@agents.mesh.invalid>')
    expect(checkCommitMessage({sha, message})).toEqual([])
    expect(git(root, 'log', '-1', '--format=%(trailers:key=Agent,valueonly)').trim()).toBe('developer')
    expect(headFiles(root)).toEqual(['src/api/login.ts', 'src/api/other.ts'])
    expect(staged(root)).toEqual(['README.md'])
    expect(git(root, 'status', '--porcelain', '--', 'notes.txt')).toBe('?? notes.txt')
    expect(events.filter((event) => event.type === 'commit.created').map((event) => event.data)).toEqual([
      {author: 'developer', text: 'feat(api): add the login route [API1]', sha, subject: 'feat(api): add the login route [API1]', files: ['src/api/login.ts', 'src/api/other.ts'], member: 'developer', task: 'API1'},
    ])
  })

  it('refuses paths outside the repository, in .git/, on the deny-list or naming a folder, and bad subjects: no commit', async () => {
    const {root, context, events} = await start()
    write(root, 'src/api/login.ts', 'x\n')
    write(root, '.mesh/credentials/portal-token', 'secret\n')
    const head = git(root, 'rev-parse', 'HEAD')
    const base = {member: 'developer', model: 'sonnet', subject: 'feat(api): add'}
    for (const files of [['../outside.ts'], ['src/../../outside.ts'], [join(root, 'src/api/login.ts')], ['.git/config'], ['.mesh/credentials/portal-token'], ['.MESH/credentials/portal-token'], ['.mesh/.runtime/daemon.json'], ['src/api'], ['.']]) {
      expect(await codeOf(commitForMember(context, {...base, files})), files[0]).toBe('commit_path_refused')
    }
    expect(await codeOf(commitForMember(context, {...base, files: []}))).toBe('commit_files_invalid')
    expect(await codeOf(commitForMember(context, {...base, files: ['']}))).toBe('commit_files_invalid')
    expect(await codeOf(commitForMember(context, {...base, subject: 'added stuff', files: ['src/api/login.ts']}))).toBe('commit_subject_invalid')
    expect(await codeOf(commitForMember(context, {...base, member: '../x', files: ['src/api/login.ts']}))).toBe('invalid_id')
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head)
    expect(staged(root)).toEqual([])
    expect(events.filter((event) => event.type === 'commit.created')).toEqual([])
  })

  it('answers `nothing` when the files equal the last commit, and names a member without a card by its id', async () => {
    const {root, context} = await start()
    expect(await commitForMember(context, {member: 'developer', model: 'sonnet', subject: 'docs: nothing', files: ['mesh.json']})).toEqual({state: 'nothing', message: 'the files equal the last commit'})
    write(root, 'docs.md', 'x\n')
    await commitForMember(context, {member: 'ghost', model: 'opus', subject: 'docs: add docs', files: ['docs.md']})
    expect(git(root, 'log', '-1', '--format=%B')).toMatch(/\nCo-authored-by: ghost \(mesh ghost\) <ghost@agents\.mesh\.invalid>$/)
  })

  it('without a git area, runs git itself: a project that is no repository is a failed outcome', async () => {
    const harness = await startHarness({areas: []})
    cleanups.push(() => harness.close())
    writeFileSync(join(harness.repo.root, 'a.txt'), 'x\n')
    expect(await commitForMember(harness.running.daemon.context, {member: 'developer', model: 'opus', subject: 'docs: a', files: ['a.txt']})).toMatchObject({state: 'failed'})
  })
})

describe('resolutionHook', () => {
  const commitMarker = (data: Record<string, unknown>): Marker => ({kind: 'commit', data})
  const report: Marker = {kind: 'report', data: {status: 'done'}}

  it("resolves the task, then makes the git-manager's commits with its card's model and the anchor's task", async () => {
    const {root, context, events} = await start()
    write(root, 'src/api/login.ts', 'x\n')
    await resolutionHook(context)(turnFinal({profile: 'git-manager', member: 'git-manager', markers: [report, commitMarker({subject: 'feat(api): add login', files: ['src/api/login.ts']})]}))
    expect(parseFrontmatter(readFileSync(join(root, TASK), 'utf8')).data).toMatchObject({status: 'done', resolved_by: 'git-manager'})
    expect(git(root, 'log', '-1', '--format=%B')).toBe('feat(api): add login [API1]\n\nAgent: git-manager\nModel: opus\nCo-authored-by: Git manager (mesh git-manager) <git-manager@agents.mesh.invalid>')
    expect(headFiles(root)).toEqual(['src/api/login.ts'])
    expect(events.map((event) => event.type).filter((type) => type === 'task.completed' || type === 'commit.created')).toEqual(['task.completed', 'commit.created'])
  })

  it("leaves a developer's commit marker to the git-manager when the team has one (logged), and makes it when it has none", async () => {
    const withManager = await start()
    write(withManager.root, 'src/api/login.ts', 'x\n')
    const head = git(withManager.root, 'rev-parse', 'HEAD')
    await resolutionHook(withManager.context)(turnFinal({markers: [commitMarker({subject: 'feat(api): add login', files: ['src/api/login.ts']})]}))
    expect(git(withManager.root, 'rev-parse', 'HEAD')).toBe(head)
    expect(withManager.debug()).toEqual([expect.objectContaining({lvl: 'warn', msg: 'developer asked for 1 commit(s): the team has a git-manager, who makes its commits'})])

    const alone = await start({developer: card('developer', 'Developer', 'sonnet')})
    write(alone.root, 'src/api/login.ts', 'x\n')
    await resolutionHook(alone.context)(turnFinal({markers: [commitMarker({subject: 'feat(api): add login', files: ['src/api/login.ts'], task: 'API9'})]}))
    expect(git(alone.root, 'log', '-1', '--format=%s%n%(trailers:key=Agent,key=Model)')).toBe('feat(api): add login [API9]\nAgent: developer\nModel: sonnet')
  })

  it('never throws: a bad marker and a refused task are debug lines', async () => {
    const {root, context, debug} = await start()
    const head = git(root, 'rev-parse', 'HEAD')
    await expect(
      resolutionHook(context)(turnFinal({profile: 'git-manager', anchor: {task: 'API77'}, markers: [report, commitMarker({subject: 'feat: x', files: 'src'}), commitMarker({files: ['a']})]})),
    ).resolves.toBeUndefined()
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head)
    expect(debug().map((event) => [event.lvl, event.msg])).toEqual([
      ['warn', expect.stringMatching(/^API77 not resolved: /)],
      ['warn', 'commit for git-manager not made: files: name at least one file to commit'],
      ['warn', 'commit for git-manager not made: the marker has no subject'],
    ])
  })
})

