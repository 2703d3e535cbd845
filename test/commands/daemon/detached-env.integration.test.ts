/**
 * MESH_DAEMON_DETACHED marks the daemon `mesh serve --detach` starts; it is
 * that daemon's business alone (issue 21): neither a turn's client nor git
 * and its hooks, which run with the daemon's own environment, ever see it.
 */
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {stringify} from 'yaml'
import {json, runCli} from '../../support/cli.js'
import {CLUSTER} from '../../standard/fixtures.js'
import {git, GIT_ENV, makeGitProject, type GitProject} from '../../daemon/git/git-fixture.js'
import {writeScriptTeam} from '../../daemon/chat/script-team.js'

let project: GitProject | undefined
let config: string | undefined
afterEach(async () => {
  if (project) await runCli(['daemon', 'stop', '--dir', project.root])
  project?.cleanup()
  project = undefined
  if (config) rmSync(config, {recursive: true, force: true})
  config = undefined
})

const WAIT = {timeout: 20_000, interval: 100}

describe('mesh serve --detach and its environment', () => {
  it("keeps MESH_DAEMON_DETACHED from a turn's client and from git's hooks", async () => {
    project = makeGitProject({git: {auto_pull: false, auto_commit: true}, remote: false})
    const {root} = project
    // A member whose client prints the names of its environment (your own clients.yaml: no trust needed).
    config = mkdtempSync(join(tmpdir(), 'mesh-config-'))
    mkdirSync(join(config, 'mesh'), {mode: 0o700})
    writeFileSync(join(config, 'mesh', 'clients.yaml'), 'clients:\n  env:\n    command: ["{node}", -e, "console.log(Object.keys(process.env).sort().join(\' \'))"]\n', {mode: 0o600})
    writeScriptTeam(root, [{id: 'developer', replies: []}])
    writeFileSync(join(root, '.mesh/team/developer.md'), readFileSync(join(root, '.mesh/team/developer.md'), 'utf8').replace('client: script', 'client: env'))
    writeFileSync(join(root, '.mesh/public/cluster.yaml'), stringify({...CLUSTER, git: {auto_pull: false, auto_commit: true}}))
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', 'chore(team): the env member [GEN1]')
    // The hook git runs for the daemon's own commit writes down the environment it got.
    const seen = join(root, 'hook-env.txt')
    writeFileSync(join(root, '.git/hooks/post-commit'), `#!/bin/sh\nenv | cut -d= -f1 | sort > '${seen}.tmp' && mv '${seen}.tmp' '${seen}'\n`)
    chmodSync(join(root, '.git/hooks/post-commit'), 0o755)
    const env = {...GIT_ENV, XDG_CONFIG_HOME: config, MESH_DAEMON_TRANSPORT: 'off', MESH_STANDARD_URL: '', MESH_SECRETS_BACKEND: 'file'}

    const started = await runCli(['serve', '--detach', '--port', '0', '--json'], {cwd: root, env})
    expect(started.code, started.stderr).toBe(0)
    const {url} = json(started)
    const token = readFileSync(join(root, '.mesh/credentials/portal-token'), 'utf8').trim()

    const asked = await runCli(['ask', 'developer', 'what do you see?', '--json'], {cwd: root, env})
    expect(asked.code, asked.stderr).toBe(0)
    const names = String(json(asked).text).split(/\s+/)
    expect(names).toContain('MESH_TURN_FILE')
    expect(names).not.toContain('MESH_DAEMON_DETACHED')

    const moved = await fetch(`${url}/tasks/API1/transition`, {method: 'POST', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body: JSON.stringify({status: 'active'})})
    expect(moved.status).toBe(200)
    await vi.waitFor(() => expect(existsSync(seen)).toBe(true), WAIT)
    const hookNames = readFileSync(seen, 'utf8').split('\n')
    expect(hookNames).toContain('GIT_AUTHOR_NAME')
    expect(hookNames).not.toContain('MESH_DAEMON_DETACHED')
  })
})
