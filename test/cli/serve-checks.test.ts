import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {checkServerFlags, startFailure} from '../../src/cli/serve-checks.js'
import {isMeshError} from '../../src/lib/errors.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
const flags = (extra: Record<string, string | undefined> = {}) => ({data: './mesh-data', 'database-schema': 'public', 'nats-prefix': 'mesh', ...extra})
const config = {host: '127.0.0.1', port: 8080, dataDir: '/srv/mesh-data'}
const caught = async (run: () => Promise<unknown>) => run().then(() => null, (error: unknown) => error)

describe('checkServerFlags', () => {
  it('resolves --data and trims the public URL', async () => {
    expect(await checkServerFlags(flags({'public-url': 'https://mesh.example//'}))).toEqual({dataDir: resolve('mesh-data'), publicUrl: 'https://mesh.example'})
  })
  it('refuses each bad flag with its usage_ code, never with the password', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mesh-checks-'))
    dirs.push(dir)
    await writeFile(join(dir, 'file'), 'x')
    const cases: Array<[Record<string, string>, string]> = [
      [{'public-url': 'mesh.example'}, 'usage_public_url'],
      [{'database-url': 'postgres://u:s3cret/x@[bad'}, 'usage_database_url'],
      [{'database-url': 'mysql://u:s3cret@db/x'}, 'usage_database_url'],
      [{nats: 'nats://a:4222, http://b'}, 'usage_nats'],
      [{'database-schema': 'Public'}, 'usage_database_schema'],
      [{'nats-prefix': 'a..b'}, 'usage_nats_prefix'],
      [{data: join(dir, 'file')}, 'usage_data_dir'],
    ]
    for (const [extra, code] of cases) {
      const error = await caught(() => checkServerFlags(flags(extra)))
      expect(isMeshError(error) && [error.kind, error.code], JSON.stringify(extra)).toEqual(['invalid', code])
      expect((error as Error).message).not.toContain('s3cret')
    }
  })
})

describe('startFailure', () => {
  it('says listen_failed for the port, with the port Node tried', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE'), {code: 'EADDRINUSE', syscall: 'listen', port: 41000})
    expect(startFailure(inUse, 'relay', {...config, port: 0})).toMatchObject({kind: 'unavailable', code: 'listen_failed', message: 'The relay could not listen on 127.0.0.1:41000: port 41000 is already in use'})
    const denied = Object.assign(new Error('listen EACCES'), {code: 'EACCES', syscall: 'listen'})
    expect(startFailure(denied, 'registry', {...config, port: 443}).message).toBe('The registry could not listen on 127.0.0.1:443: no permission to bind port 443')
  })
  it('names the backend and masks every password, even one the driver repeats', () => {
    const databaseUrl = 'postgres://mesh:p%40ss@db:5432/mesh'
    const error = Object.assign(new Error('password authentication failed for "mesh" (p@ss) at postgres://mesh:p@ss@db'), {severity: 'FATAL'})
    const failure = startFailure(error, 'registry', {...config, databaseUrl})
    expect(failure).toMatchObject({code: 'registry_start_failed'})
    expect(failure.message).toMatch(/^The registry could not start: PostgreSQL at db:5432 \(--database-url\): /)
    expect(failure.message).not.toContain('p@ss')
    expect(failure.message).not.toContain('p%40ss')
    expect(failure.message).toContain('(***) at postgres://***@db')
  })
  it('passes a MeshError through unchanged', () => {
    const original = startFailure(new Error('x'), 'relay', config)
    expect(startFailure(original, 'registry', config)).toBe(original)
  })
})
