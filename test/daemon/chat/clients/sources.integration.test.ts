/**
 * The layers of client templates (docs/daemon.md, Clients): defaults ← the
 * user's own file ← the project's file while untracked and trusted; a file
 * that is refused is never silently replaced by a layer below.
 */
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {clientFor, loadClients} from '../../../../src/daemon/chat/clients/sources.js'
import {recordTrust, sha256} from '../../../../src/daemon/chat/clients/trust.js'
import {DEFAULT_CLIENTS} from '../../../../src/daemon/chat/clients/templates.js'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, {recursive: true, force: true})
  dir = undefined
})

function setup(files: {user?: string; project?: string}) {
  dir = mkdtempSync(join(tmpdir(), 'mesh-sources-'))
  const root = join(dir, 'project')
  const config = join(dir, 'config')
  mkdirSync(join(root, '.mesh', 'agents'), {recursive: true})
  mkdirSync(join(config, 'mesh'), {recursive: true, mode: 0o700})
  if (files.user !== undefined) writeFileSync(join(config, 'mesh', 'clients.yaml'), files.user, {mode: 0o600})
  if (files.project !== undefined) writeFileSync(join(root, '.mesh', 'agents', 'clients.yaml'), files.project)
  const trust = () => recordTrust(join(config, 'mesh'), realpathSync(join(root, '.mesh/agents/clients.yaml')), sha256(Buffer.from(files.project!)))
  return {root, env: {XDG_CONFIG_HOME: config}, trust}
}

describe('client templates', () => {
  it('are the defaults with no file anywhere', async () => {
    const {root, env} = setup({})
    const state = await loadClients({root, env})
    expect(state).toEqual({clients: DEFAULT_CLIENTS, refused: {}, refusedAll: null, access: {}, refusedAccess: {}, mcp: {}, warnings: []})
    expect(clientFor(state, 'nope')).toEqual({refused: expect.stringMatching(/^unknown client "nope"; known: claude, codex, gemini, script/)})
  })

  it('take the user’s file over the defaults, and a trusted project file over both', async () => {
    const {root, env, trust} = setup({user: 'clients:\n  claude:\n    command: [user-claude]\n  mine:\n    command: [mine]\n', project: 'clients:\n  claude:\n    command: [project-claude]\n'})
    const before = await loadClients({root, env})
    expect(clientFor(before, 'mine')).toMatchObject({template: {command: ['mine']}})
    // The untrusted project file names claude: its turns fail, the user's claude does not stand in.
    expect(clientFor(before, 'claude')).toEqual({refused: expect.stringContaining('is not trusted on this machine')})
    expect(clientFor(before, 'codex')).toMatchObject({template: DEFAULT_CLIENTS.codex})
    await trust()
    const after = await loadClients({root, env})
    expect(clientFor(after, 'claude')).toMatchObject({template: {command: ['project-claude']}})
    expect(clientFor(after, 'mine')).toMatchObject({template: {command: ['mine']}})
    expect(after.warnings).toEqual([])
  })

  it('fail every turn when a refused file does not say which clients it names', async () => {
    const {root, env} = setup({project: 'clients: ['})
    const state = await loadClients({root, env})
    expect(clientFor(state, 'codex')).toEqual({refused: '.mesh/agents/clients.yaml is not trusted on this machine: no turn runs until you read it and run `mesh trust`'})
  })

  it('take access levels from the user’s file and a trusted project file, never from an untrusted one (a cloned repository cannot raise a member)', async () => {
    const {root, env, trust} = setup({user: 'access:\n  developer: full\n', project: 'access:\n  consultant: full\n  developer: read\n'})
    const before = await loadClients({root, env})
    expect(before.access).toEqual({developer: 'full'})
    await trust()
    const after = await loadClients({root, env})
    expect(after.access).toEqual({developer: 'read', consultant: 'full'})
  })

  it('fail the turns of a member whose access entry cannot be used, and say so', async () => {
    const {root, env} = setup({user: 'access:\n  developer: write\n'})
    const state = await loadClients({root, env})
    expect(state.refusedAccess.developer).toMatch(/the access of developer is one of read, edit, full; got "write"; turns of developer fail until it is fixed/)
    expect(state.warnings).toEqual([state.refusedAccess.developer])
  })
})
