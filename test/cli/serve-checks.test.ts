import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {checkServerFlags} from '../../src/cli/serve-checks.js'
import {isMeshError} from '../../src/lib/errors.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
const flags = (extra: Record<string, string | undefined> = {}) => ({data: './mesh-data', 'database-schema': 'public', 'nats-prefix': 'mesh', ...extra})
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
