/**
 * `mesh validate --commits`, rule `commit-links` (spec: Links registry —
 * every commit that changes where a module deploys or its version updates
 * its links.yaml entry in the same commit), on real git history.
 */
import {execFileSync} from 'node:child_process'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {validateCommits} from '../../../src/standard/validate/index.js'
import {json, runCli} from '../../support/cli.js'
import {CLUSTER, makeRepo, type FixtureRepo} from '../fixtures.js'

const ENV = {...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], {cwd, encoding: 'utf8', env: ENV}).trim()

const repos: FixtureRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

const links = (version: string, extra: Record<string, unknown> = {}) =>
  stringify({version: 1, modules: [{id: 'api', repo: {branch: 'main', version}, prod: {provider: 'fly', deploy_command: 'flyctl deploy --config deploy/api.production.toml'}, ...extra}]})
const pkg = (version: string, extra: Record<string, unknown> = {}) => JSON.stringify({name: 'api', version, ...extra}, null, 2) + '\n'

/** A committed project: module api at src/api (cluster.yaml), its package.json 1.0.0 and its links entry. */
function project(withLinks = true): {repo: FixtureRepo; commit(files: Record<string, string | null>, subject: string): string} {
  const repo = makeRepo({
    'src/api/package.json': pkg('1.0.0'),
    'src/api/index.ts': 'export {}\n',
    'deploy/api.production.toml': 'app = "api"\n',
    ...(withLinks ? {'.mesh/public/links.yaml': links('1.0.0')} : {}),
  })
  repos.push(repo)
  git(repo.root, 'init', '-q', '-b', 'main')
  git(repo.root, 'add', '-A')
  git(repo.root, 'commit', '-q', '-m', 'chore(project): start [API1]')
  return {
    repo,
    commit(files, subject) {
      for (const [path, text] of Object.entries(files)) {
        if (text === null) rmSync(join(repo.root, path))
        else {
          mkdirSync(dirname(join(repo.root, path)), {recursive: true})
          writeFileSync(join(repo.root, path), text)
        }
      }
      git(repo.root, 'add', '-A')
      git(repo.root, 'commit', '-q', '-m', `${subject} [API1]`)
      return git(repo.root, 'rev-parse', 'HEAD')
    },
  }
}

const linkFindings = async (root: string, range: string) => (await validateCommits(root, range)).findings.filter((finding) => finding.rule === 'commit-links')

describe('commit-links', () => {
  it('reports a version bump or a deploy config change whose commit leaves the module entry alone, and nothing else', async () => {
    const {repo, commit} = project()
    const bump = commit({'src/api/package.json': pkg('1.1.0')}, 'chore(api): release 1.1.0')
    const bumpWithLinks = commit({'src/api/package.json': pkg('1.2.0'), '.mesh/public/links.yaml': links('1.2.0')}, 'chore(api): release 1.2.0')
    commit({'src/api/package.json': pkg('1.2.0', {dependencies: {koa: '^3'}})}, 'build(api): add koa')
    commit({'src/api/index.ts': 'export const x = 1\n'}, 'feat(api): x')
    const fly = commit({'src/api/fly.toml': 'app = "api"\nprimary_region = "ams"\n'}, 'chore(api): move to ams')
    const named = commit({'deploy/api.production.toml': 'app = "api-prod"\n'}, 'chore(deploy): rename the app')
    const namedWithLinks = commit({'deploy/api.production.toml': 'app = "api-eu"\n', '.mesh/public/links.yaml': links('1.2.0', {notes: 'eu'})}, 'chore(deploy): eu')
    // links.yaml changed, but another module's entry, not api's: still a finding.
    const otherEntry = commit(
      {'src/api/package.json': pkg('1.3.0'), '.mesh/public/links.yaml': stringify({version: 1, modules: [{id: 'api', repo: {branch: 'main', version: '1.2.0'}, prod: {provider: 'fly', deploy_command: 'flyctl deploy --config deploy/api.production.toml'}, notes: 'eu'}, {id: 'general', notes: 'x'}]})},
      'chore(api): release 1.3.0',
    )

    const findings = await linkFindings(repo.root, `${git(repo.root, 'rev-list', '--max-parents=0', 'HEAD')}..HEAD`)
    expect(findings.map((finding) => [finding.file, finding.severity, finding.message])).toEqual([
      [`commit:${otherEntry.slice(0, 12)}`, 'error', 'changes its version (src/api/package.json: 1.2.0 → 1.3.0) of module api without updating its entry in .mesh/public/links.yaml in the same commit'],
      [`commit:${named.slice(0, 12)}`, 'error', 'changes where it deploys (deploy/api.production.toml, named by its prod.deploy_command) of module api without updating its entry in .mesh/public/links.yaml in the same commit'],
      [`commit:${fly.slice(0, 12)}`, 'error', 'changes where it deploys (src/api/fly.toml) of module api without updating its entry in .mesh/public/links.yaml in the same commit'],
      [`commit:${bump.slice(0, 12)}`, 'error', 'changes its version (src/api/package.json: 1.0.0 → 1.1.0) of module api without updating its entry in .mesh/public/links.yaml in the same commit'],
    ])
    expect([bumpWithLinks, namedWithLinks].some((sha) => findings.some((finding) => finding.file === `commit:${sha.slice(0, 12)}`))).toBe(false)
  })

  it('asks for an entry when the module has none, and checks nothing in a project without links.yaml', async () => {
    const {repo, commit} = project(false)
    commit({'src/api/package.json': pkg('2.0.0')}, 'chore(api): release 2.0.0')
    expect(await linkFindings(repo.root, 'HEAD~1..HEAD')).toEqual([])

    commit({'.mesh/public/links.yaml': stringify({version: 1, modules: [{id: 'general', notes: 'docs'}]})}, 'docs(links): start the registry')
    const sha = commit({'src/api/package.json': pkg('2.1.0')}, 'chore(api): release 2.1.0')
    expect((await linkFindings(repo.root, 'HEAD~1..HEAD')).map((finding) => finding.message)).toEqual([
      'changes its version (src/api/package.json: 2.0.0 → 2.1.0) of module api without updating an entry for it in .mesh/public/links.yaml (there is none) in the same commit',
    ])

    // Through the binary: a finding of the range, exit 1.
    const result = await runCli(['validate', repo.root, '--commits', 'HEAD~1..HEAD', '--json'])
    expect(result.code).toBe(1)
    expect(json(result).findings).toEqual([expect.objectContaining({file: `commit:${sha.slice(0, 12)}`, rule: 'commit-links', severity: 'error'})])
  })

  it('takes the module paths of cluster.yaml: a module at the repository root owns the root package.json', async () => {
    const repo = makeRepo({'.mesh/public/cluster.yaml': stringify({...CLUSTER, modules: [...CLUSTER.modules.filter((m) => m.id !== 'api'), {id: 'api', kind: 'code', path: '.', task_prefix: 'API'}]}), 'package.json': pkg('0.1.0'), '.mesh/public/links.yaml': links('0.1.0')})
    repos.push(repo)
    git(repo.root, 'init', '-q', '-b', 'main')
    git(repo.root, 'add', '-A')
    git(repo.root, 'commit', '-q', '-m', 'chore(project): start [API1]')
    writeFileSync(join(repo.root, 'package.json'), pkg('0.2.0'))
    git(repo.root, 'commit', '-q', '-am', 'chore(api): release 0.2.0 [API1]')
    expect((await linkFindings(repo.root, 'HEAD~1..HEAD')).map((finding) => finding.message)).toEqual([expect.stringMatching(/^changes its version \(package\.json: 0\.1\.0 → 0\.2\.0\) of module api/)])
  })
})
