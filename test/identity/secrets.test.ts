import {mkdtemp, readdir, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createFileSecretStore, openSecretStore} from '../../src/identity/secrets.js'

const dirs: string[] = []
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-secrets-'))
  dirs.push(dir)
  return join(dir, 'credentials')
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

describe('file secret store', () => {
  it('stores secrets in 0600 files under a 0700 folder and reads them back', async () => {
    const dir = await tempDir()
    const store = createFileSecretStore(dir)
    expect(store.backend).toBe('file')
    expect(await store.get('api_key/alpha')).toBeNull()
    await store.set('api_key/alpha', 'secret-value')
    expect(await store.get('api_key/alpha')).toBe('secret-value')
    const [file] = await readdir(dir)
    expect(file).not.toContain('/')
    expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    await store.delete('api_key/alpha')
    expect(await store.get('api_key/alpha')).toBeNull()
  })
  it('keeps distinct names in distinct files', async () => {
    const store = createFileSecretStore(await tempDir())
    await store.set('a/b', '1')
    await store.set('a_b', '2')
    await store.set('a~2f~b', '3')
    expect([await store.get('a/b'), await store.get('a_b'), await store.get('a~2f~b')]).toEqual(['1', '2', '3'])
  })
})

describe('openSecretStore', () => {
  it('uses files when told to', async () => {
    const store = await openSecretStore({dir: await tempDir(), prefer: 'file'})
    expect(store.backend).toBe('file')
  })
  it('falls back to files when no keychain answers, and says which backend it chose', async () => {
    const dir = await tempDir()
    const store = await openSecretStore({dir, keychainTimeoutMs: 2000})
    expect(['keychain', 'file']).toContain(store.backend)
    if (store.backend === 'file') expect(store.location).toBe(dir)
    await store.set('mesh-test-secret', 'v')
    expect(await store.get('mesh-test-secret')).toBe('v')
    await store.delete('mesh-test-secret')
  })
})
