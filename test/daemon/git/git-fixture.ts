/**
 * Real git repositories for the git area's tests: a scaffolded project under
 * git, a bare "remote" in a temp folder as its origin, and a second clone
 * that pushes commits the project can pull. Identities come from `-c` and the
 * environment; the user's global and system git config are never read or touched.
 */
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {stringify} from 'yaml'
import {createDaemon, type Daemon} from '../../../src/daemon/daemon.js'
import {CLUSTER, makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

/** What git runs with in these tests, the daemon's git included: no global or system config, a fixed identity. */
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
}

export const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], {cwd, encoding: 'utf8', env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe']}).trim()

export interface GitProject {
  repo: FixtureRepo
  root: string
  /** The bare origin, or null for a project without a remote. */
  remote: string | null
  /** Commits a file in another clone and pushes it to origin. */
  pushFromElsewhere(path: string, text: string): string
  cleanup(): void
}

/** A project with `git:` settings in cluster.yaml, committed on `main`; with a remote unless `remote: false`. */
export function makeGitProject(options: {git?: Record<string, unknown>; remote?: boolean; init?: boolean} = {}): GitProject {
  const repo = makeRepo({'.mesh/public/cluster.yaml': stringify({...CLUSTER, git: {auto_pull: true, auto_commit: false, ...options.git}})})
  const scratch = mkdtempSync(join(tmpdir(), 'mesh-git-remote-'))
  const root = repo.root
  let remote: string | null = null
  if (options.init !== false) {
    git(root, 'init', '-q', '-b', 'main')
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', 'chore(project): start [GEN1]')
    if (options.remote !== false) {
      remote = join(scratch, 'origin.git')
      git(scratch, 'init', '-q', '--bare', '-b', 'main', remote)
      git(root, 'remote', 'add', 'origin', remote)
      git(root, 'push', '-q', '-u', 'origin', 'main')
    }
  }
  let clones = 0
  return {
    repo,
    root,
    remote,
    pushFromElsewhere(path, text) {
      if (!remote) throw new Error('no remote')
      const clone = join(scratch, `clone-${++clones}`)
      git(scratch, 'clone', '-q', remote, clone)
      writeFileSync(join(clone, path), text)
      git(clone, 'add', '--', path)
      git(clone, 'commit', '-q', '-m', `docs(project): ${path} from elsewhere [GEN1]`)
      git(clone, 'push', '-q', 'origin', 'main')
      return git(clone, 'rev-parse', 'HEAD')
    },
    cleanup() {
      repo.cleanup()
      rmSync(scratch, {recursive: true, force: true})
    },
  }
}

/** A daemon context for the project (no areas, no HTTP): the area under test is built on it. */
export async function daemonFor(project: {root: string}): Promise<Daemon> {
  return createDaemon({root: project.root, areas: []})
}
