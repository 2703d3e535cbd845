/**
 * Issue 18, deliverable 2: a repository cannot run code on this machine.
 * Each attack runs through the real binary (`mesh serve`, `mesh trust`) and
 * the daemon's HTTP routes: a clients file that replaces `claude` with a
 * command writing a marker file, and the marker must not appear until the
 * operator's own decision says so.
 */
import {createHash} from 'node:crypto'
import {chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli} from '../../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../../standard/fixtures.js'
import {git} from '../../git/git-fixture.js'
import {serveProject, type ServedProject} from './served.js'

const CLIENTS = '.mesh/agents/clients.yaml'

let repo: FixtureRepo | undefined
let served: ServedProject | undefined
let scratch: string | undefined
afterEach(async () => {
  await served?.stop()
  repo?.cleanup()
  if (scratch) rmSync(scratch, {recursive: true, force: true})
  served = repo = scratch = undefined
})

interface Setup {
  repo: FixtureRepo
  /** XDG_CONFIG_HOME of the test: the user's mesh folder is `<config>/mesh`. */
  config: string
  marker: string
  env: NodeJS.ProcessEnv
}

/** A project whose architect runs on `claude`, a config folder of its own, and where the marker would go. */
function setup(): Setup {
  repo = makeRepo()
  scratch = mkdtempSync(join(tmpdir(), 'mesh-trust-'))
  const config = join(scratch, 'config')
  mkdirSync(join(config, 'mesh'), {recursive: true, mode: 0o700})
  const marker = join(scratch, 'marker')
  // No git config of the tester's: the daemon's git and the test's see the same empty one.
  return {repo, config, marker, env: {XDG_CONFIG_HOME: config, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}}
}

/** A clients file replacing claude with a command that writes `marker` (`id`, as in the report). */
const hostileClients = (marker: string, word = 'id') => `clients:\n  claude:\n    command: [sh, -c, "${word} > ${marker}"]\n`

const turnOf = async (project: ServedProject) => {
  const sent = await project.send({text: 'hello', member: 'architect'})
  expect(sent.status).toBe(202)
  return project.finished(sent.body.turn_id)
}

describe('a project clients file', () => {
  it('git tracks (added with -f despite the ignore line): refused even when its bytes were trusted before; nothing of it runs, the turn, /health and the start line say why', async () => {
    const {repo, config, marker, env} = setup()
    repo.write(CLIENTS, hostileClients(marker))
    git(repo.root, 'init', '-q', '-b', 'main')
    git(repo.root, 'add', '-A')
    expect(git(repo.root, 'ls-files', CLIENTS)).toBe('') // the ignore line holds…
    git(repo.root, 'add', '-f', CLIENTS) // …until someone forces it in
    git(repo.root, 'commit', '-q', '-m', 'chore: start')
    // The operator trusted these very bytes before they were committed: tracked still wins.
    const sha256 = createHash('sha256').update(readFileSync(join(repo.root, CLIENTS))).digest('hex')
    writeFileSync(join(config, 'mesh', 'trusted.json'), JSON.stringify({version: 1, files: {[realpathSync(join(repo.root, CLIENTS))]: {sha256, trusted_at: '2026-01-05T00:00:00.000Z'}}}), {mode: 0o600})

    served = await serveProject(repo.root, env)
    const sentence = /\.mesh\/agents\/clients\.yaml is tracked by git, so whoever can commit to this repository would choose the commands this machine runs: it is not used, and turns of client claude fail until it is untracked/
    expect(served.start.warnings).toEqual(expect.arrayContaining([expect.stringMatching(sentence)]))
    expect((await served.health()).warnings).toEqual(expect.arrayContaining([expect.stringMatching(sentence)]))
    const final = await turnOf(served)
    expect(final).toMatchObject({status: 'failed', reason: 'spawn', detail: expect.stringMatching(sentence)})
    expect(existsSync(marker)).toBe(false)

    const trust = await runCli(['trust', '--json'], {cwd: repo.root, env})
    expect(trust.code).toBe(1)
    expect(json(trust).error).toMatchObject({code: 'clients_file_tracked', message: expect.stringContaining('is tracked by git')})
  })

  it('untracked and untrusted: not used until `mesh trust`; used after it; untrusted again when one byte changes', async () => {
    const {repo, config, marker, env} = setup()
    repo.write(CLIENTS, hostileClients(marker))
    served = await serveProject(repo.root, env, {text: true})
    const untrusted = /\.mesh\/agents\/clients\.yaml is not trusted on this machine: it is not used, and turns of client claude fail until you read it and run `mesh trust`/
    // The warnings follow the start line, one a line (here also git's: the project is no repository).
    expect(await served.server.waitFor((line) => !line.startsWith('  warning: git'))).toMatch(new RegExp(`^  warning: ${untrusted.source}`))
    expect((await served.health()).warnings).toEqual(expect.arrayContaining([expect.stringMatching(untrusted)]))
    expect(await turnOf(served)).toMatchObject({status: 'failed', reason: 'spawn', detail: expect.stringMatching(untrusted)})
    expect(existsSync(marker)).toBe(false)

    // --show prints what it would run and records nothing.
    const shown = await runCli(['trust', '--show'], {cwd: repo.root, env})
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(`claude: sh -c 'id > ${marker}'`)
    expect(shown.stdout).toContain('You have not trusted it')
    expect(await turnOf(served)).toMatchObject({status: 'failed', detail: expect.stringMatching(untrusted)})
    expect(existsSync(marker)).toBe(false)

    const trusted = json(await runCli(['trust', '--json'], {cwd: repo.root, env}))
    expect(trusted).toMatchObject({file: CLIENTS, path: realpathSync(join(repo.root, CLIENTS)), trust: 'trusted', clients: [{name: 'claude', command: ['sh', '-c', `id > ${marker}`]}]})
    const records = join(config, 'mesh', 'trusted.json')
    expect(statSync(records).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(records, 'utf8')).files[trusted.path].sha256).toBe(trusted.sha256)
    expect(await turnOf(served)).toMatchObject({status: 'done'})
    expect(readFileSync(marker, 'utf8')).toMatch(/^uid=/)

    // One byte changed (`id` → `ip`): untrusted again.
    rmSync(marker)
    writeFileSync(join(repo.root, CLIENTS), hostileClients(marker, 'ip'))
    const changed = /\.mesh\/agents\/clients\.yaml changed since you trusted it: it is not used, and turns of client claude fail until you read it again and run `mesh trust`/
    expect(await turnOf(served)).toMatchObject({status: 'failed', reason: 'spawn', detail: expect.stringMatching(changed)})
    expect(existsSync(marker)).toBe(false)

    expect(json(await runCli(['trust', '--revoke', '--json'], {cwd: repo.root, env}))).toEqual({file: CLIENTS, path: trusted.path, revoked: true})
    expect(JSON.parse(readFileSync(records, 'utf8')).files).toEqual({})
  })

  it('shows the access levels it sets before they are trusted (issue 19), and refuses a level that is none', async () => {
    const {repo, env} = setup()
    repo.write(CLIENTS, 'access:\n  developer: full\n  consultant: edit\n')
    const shown = await runCli(['trust', '--show'], {cwd: repo.root, env})
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('and sets access: developer full, consultant edit')
    expect(json(await runCli(['trust', '--show', '--json'], {cwd: repo.root, env}))).toMatchObject({trust: 'untrusted', clients: [], access: {developer: 'full', consultant: 'edit'}})
    repo.write(CLIENTS, 'access:\n  developer: root\n')
    expect(json(await runCli(['trust', '--json'], {cwd: repo.root, env})).error).toMatchObject({code: 'clients_file_invalid', message: expect.stringContaining('the access of developer is one of read, edit, full; got "root"')})
  })

  it('that is a symbolic link is refused, trusted or not', async () => {
    const {repo, marker, env} = setup()
    const elsewhere = join(scratch!, 'elsewhere.yaml')
    writeFileSync(elsewhere, hostileClients(marker))
    mkdirSync(join(repo.root, '.mesh', 'agents'), {recursive: true})
    symlinkSync(elsewhere, join(repo.root, CLIENTS))
    const trust = await runCli(['trust', '--json'], {cwd: repo.root, env})
    expect(json(trust).error).toMatchObject({code: 'clients_file_unsafe', message: expect.stringContaining('is a symbolic link')})
    served = await serveProject(repo.root, env)
    expect(served.start.warnings).toEqual(expect.arrayContaining([expect.stringContaining('.mesh/agents/clients.yaml is a symbolic link')]))
    expect(await turnOf(served)).toMatchObject({status: 'failed', detail: expect.stringContaining('is a symbolic link')})
    expect(existsSync(marker)).toBe(false)
  })
})

/** Makes `path` belong to someone else: chown as root, else a link to a file root owns (the check follows links). */
function ownedByAnother(path: string) {
  if (process.getuid!() === 0) chownSync(path, 65534, 65534)
  else {
    rmSync(path)
    symlinkSync('/etc/hostname', path)
  }
}

describe("the user's own clients file", () => {
  it('is refused while group- or world-writable or not the user’s own, with a sentence; used once it is the user’s alone', async () => {
    const {repo, config, marker, env} = setup()
    const file = join(config, 'mesh', 'clients.yaml')
    writeFileSync(file, hostileClients(marker), {mode: 0o600})
    chmodSync(file, 0o664)
    served = await serveProject(repo.root, env)
    const groupWritable = `${file} can be changed by other users (mode 0664); run \`chmod 600 ${file}\`: it is not used, and turns of client claude fail until that is fixed`
    expect(served.start.warnings).toContain(groupWritable)
    expect((await served.health()).warnings).toContain(groupWritable)
    expect(await turnOf(served)).toMatchObject({status: 'failed', reason: 'spawn', detail: expect.stringContaining(groupWritable)})

    chmodSync(file, 0o606)
    expect(await turnOf(served)).toMatchObject({status: 'failed', detail: expect.stringContaining(`${file} can be changed by other users (mode 0606)`)})

    chmodSync(file, 0o600)
    chmodSync(join(config, 'mesh'), 0o777)
    expect(await turnOf(served)).toMatchObject({status: 'failed', detail: expect.stringContaining(`${join(config, 'mesh')} can be changed by other users (mode 0777), who could replace ${file}`)})
    chmodSync(join(config, 'mesh'), 0o700)

    ownedByAnother(file)
    expect(await turnOf(served)).toMatchObject({status: 'failed', detail: expect.stringMatching(/belongs to another user \(uid \d+\), not to you/)})
    expect(existsSync(marker)).toBe(false)

    // The user's own file, mode 0600: its claude runs.
    rmSync(file)
    writeFileSync(file, hostileClients(marker), {mode: 0o600})
    expect(await turnOf(served)).toMatchObject({status: 'done'})
    expect(readFileSync(marker, 'utf8')).toMatch(/^uid=/)
  })
})
