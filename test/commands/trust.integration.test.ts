import {chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli} from '../support/cli.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'

const CLIENTS = '.mesh/agents/clients.yaml'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A project (with `clients` as its clients file, if given) and an empty config folder of its own. */
function setup(clients?: string): {repo: FixtureRepo; config: string; env: NodeJS.ProcessEnv; records: string} {
  const repo = makeRepo()
  if (clients !== undefined) repo.write(CLIENTS, clients)
  const config = mkdtempSync(join(tmpdir(), 'mesh-config-'))
  cleanups.push(() => repo.cleanup(), () => rmSync(config, {recursive: true, force: true}))
  const env = {XDG_CONFIG_HOME: config, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}
  return {repo, config, env, records: join(config, 'mesh', 'trusted.json')}
}

describe('mesh trust', () => {
  it('says there is nothing to trust without a project clients file, and revoking nothing is no error', async () => {
    const {repo, env} = setup()
    const missing = await runCli(['trust', '--json'], {cwd: repo.root, env})
    expect(missing.code).toBe(1)
    expect(json(missing).error).toMatchObject({code: 'clients_file_missing', message: expect.stringContaining('mesh/clients.yaml, which needs no trust')})
    expect(json(await runCli(['trust', '--revoke', '--json'], {cwd: repo.root, env}))).toMatchObject({file: CLIENTS, revoked: false})
  })

  it('refuses a file whose entries cannot be used, naming each reason, and records nothing', async () => {
    const {repo, env, records} = setup('clients:\n  claude:\n    command: [claude, -p, --append-system-prompt, "{system}"]\n  broken:\n    command: nope\n')
    const refused = await runCli(['trust'], {cwd: repo.root, env})
    expect(refused.code).toBe(1)
    expect(refused.errorText).toContain('client claude puts `{system}` in its arguments, where every local user can read it')
    expect(refused.errorText).toContain('client broken needs `command`')
    expect(refused.errorText).toContain('Code: clients_file_invalid')
    expect(existsSync(records)).toBe(false)
    const notYaml = setup('clients: [')
    expect(json(await runCli(['trust', '--json'], {cwd: notYaml.repo.root, env: notYaml.env})).error.code).toBe('clients_file_invalid')
  })

  it('--show records nothing and shows a hostile file’s words as printable text', async () => {
    const {repo, env, records} = setup('clients:\n  claude:\n    command: ["evil\\u001b]0;pwned\\u0007", -p]\n')
    const shown = await runCli(['trust', '--show'], {cwd: repo.root, env})
    expect(shown.code).toBe(0)
    expect(shown.stdout).not.toMatch(/[\u001b\u0007]/)
    expect(shown.stdout).toContain('claude: ')
    expect(shown.stdout).toContain('You have not trusted it')
    expect(existsSync(records)).toBe(false)
    expect(json(await runCli(['trust', '--show', '--json'], {cwd: repo.root, env}))).toMatchObject({trust: 'untrusted'})
    const both = await runCli(['trust', '--show', '--revoke'], {cwd: repo.root, env})
    expect(both.code).toBe(2)
  })

  it('refuses to record trust where other users could change the records', async () => {
    const {repo, config, env, records} = setup('clients:\n  local:\n    command: [llm]\n')
    mkdirSync(join(config, 'mesh'), {mode: 0o700})
    chmodSync(join(config, 'mesh'), 0o777)
    const exposed = await runCli(['trust', '--json'], {cwd: repo.root, env})
    expect(exposed.code).toBe(1)
    expect(json(exposed).error).toMatchObject({code: 'trust_records_exposed', message: expect.stringContaining('can be changed by other users (mode 0777)')})
    chmodSync(join(config, 'mesh'), 0o700)
    expect(json(await runCli(['trust', '--json'], {cwd: repo.root, env}))).toMatchObject({trust: 'trusted', clients: [{name: 'local', command: ['llm']}]})
    expect(existsSync(records)).toBe(true)
  })

  it('shows whose turns the file gives mesh mcp, and refuses an mcp entry it cannot use (issue 24)', async () => {
    const {repo, env} = setup('mcp: {developer: true, architect: false}\n')
    const shown = await runCli(['trust', '--show'], {cwd: repo.root, env})
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toMatch(/^and gives mesh mcp to the turns of: developer$/m)
    expect(json(await runCli(['trust', '--show', '--json'], {cwd: repo.root, env}))).toMatchObject({mcp: ['developer']})
    const wrong = setup('mcp: {developer: sure}\n')
    const refused = await runCli(['trust', '--json'], {cwd: wrong.repo.root, env: wrong.env})
    expect(json(refused).error).toMatchObject({code: 'clients_file_invalid', message: expect.stringContaining('the mcp entry of developer is true or false')})
  })
})
