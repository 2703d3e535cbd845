/**
 * Each local agent's identity in `.mesh/agents/<id>.yaml` (issue 23): the
 * one-time migration of `credentials/agents.json`, the `clients` name kept
 * for the clients file, and the credentials folder found from a subfolder.
 */
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {credentialsDir, migrateLegacyProfiles, readProfiles, saveProfile, type AgentProfile} from '../../src/agent/credentials.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})
/** A project folder with `.mesh/credentials/`. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'mesh-agent-files-'))
  dirs.push(root)
  const creds = join(root, '.mesh', 'credentials')
  mkdirSync(creds, {recursive: true})
  return {root, creds, agents: join(root, '.mesh', 'agents')}
}
const profile = (over: Partial<AgentProfile> = {}): AgentProfile => ({registry: 'https://registry.example', pubkey: 'MCowBQYDK2VwAyEA', did: 'did:key:z6Mkx', handle: 'https://registry.example/agent/alpha', secrets: 'file', registered_at: '2026-11-01T10:00:00.000Z', ...over})

describe('agents/<id>.yaml', () => {
  it('holds the id, the public key, the key reference and the registry — never a secret — in a 0600 file', async () => {
    const {creds, agents} = project()
    const path = await saveProfile(creds, 'alpha', profile())
    expect(path).toBe(join(agents, 'alpha.yaml'))
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(parse(readFileSync(path, 'utf8'))).toEqual({
      id: 'alpha',
      pubkey: 'MCowBQYDK2VwAyEA',
      did: 'did:key:z6Mkx',
      key: {store: 'file', name: 'identity.alpha'},
      registry: 'https://registry.example',
      handle: 'https://registry.example/agent/alpha',
      registered_at: '2026-11-01T10:00:00.000Z',
    })
    expect(await readProfiles(creds)).toEqual({alpha: profile()})
  })

  it('migrates credentials/agents.json once, keeping a file already there, and leaves the clients file alone', async () => {
    const {creds, agents} = project()
    mkdirSync(agents)
    writeFileSync(join(agents, 'clients.yaml'), 'claude:\n  command: [claude]\n')
    await saveProfile(creds, 'beta', profile({registry: 'https://newer.example'}))
    const legacy = {version: 1, agents: {alpha: profile(), beta: profile({registry: 'https://older.example'}), clients: profile()}}
    writeFileSync(join(creds, 'agents.json'), JSON.stringify(legacy))

    expect(await migrateLegacyProfiles(creds)).toEqual({migrated: ['alpha', 'beta'], skipped: ['clients']})
    expect(existsSync(join(creds, 'agents.json'))).toBe(false)
    expect(JSON.parse(readFileSync(join(creds, 'agents.json.migrated'), 'utf8'))).toEqual(legacy)
    expect(readFileSync(join(agents, 'clients.yaml'), 'utf8')).toBe('claude:\n  command: [claude]\n')
    const profiles = await readProfiles(creds)
    expect(Object.keys(profiles)).toEqual(['alpha', 'beta'])
    expect(profiles.alpha).toEqual(profile())
    // The newer file was not overwritten by the older list.
    expect(profiles.beta.registry).toBe('https://newer.example')

    // Once: nothing left to migrate, and a later change is not undone.
    await saveProfile(creds, 'alpha', profile({handle: 'changed'}))
    expect(await migrateLegacyProfiles(creds)).toBeNull()
    expect((await readProfiles(creds)).alpha.handle).toBe('changed')
  })

  it('stops on an agents.json it cannot read, saying what to do, and writes nothing', async () => {
    const {creds, agents} = project()
    writeFileSync(join(creds, 'agents.json'), '{not json')
    await expect(readProfiles(creds)).rejects.toMatchObject({code: 'credentials_unreadable', message: expect.stringMatching(/agents.json is not readable JSON/)})
    expect(existsSync(agents)).toBe(false)
    expect(existsSync(join(creds, 'agents.json'))).toBe(true)
  })

  it('refuses an agent called clients (any case): its file would be the clients file', async () => {
    const {creds, agents} = project()
    for (const id of ['clients', 'Clients']) await expect(saveProfile(creds, id, profile())).rejects.toMatchObject({code: 'usage_agent_id_reserved', message: expect.stringMatching(/\.mesh\/agents\/clients\.yaml/)})
    expect(existsSync(agents)).toBe(false)
  })
})

describe('the credentials folder', () => {
  it("is the project's .mesh/credentials from any subfolder, the flag or MESH_CREDENTIALS_DIR when given", async () => {
    const {root, creds} = project()
    const deep = join(root, 'src', 'deep')
    mkdirSync(deep, {recursive: true})
    expect(await credentialsDir(undefined, deep)).toBe(creds)
    expect(await credentialsDir('mine', deep)).toBe(join(deep, 'mine'))
    expect(existsSync(join(deep, '.mesh'))).toBe(false)
  })
})
