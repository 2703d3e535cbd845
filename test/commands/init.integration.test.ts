import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../standard/scaffold/temp-project.js'
import {json, mesh} from './standard-cli.js'

describe('mesh init (built CLI)', () => {
  it('scaffolds with flags, and mesh validate then reports zero findings', async () => {
    const dir = await tempDir()
    const init = await mesh(['init', dir, '--name', 'Demo App', '--type', 'service', '--hub', 'http://127.0.0.1:7000', '--yes'])
    expect(init.code).toBe(0)
    expect(init.stdout).toMatch(/^created {2}mesh\.json$/m)
    expect(init.stdout).toMatch(/Demo App \(demo-app\): 33 created/)
    const cluster = await readFile(join(dir, '.mesh/public/cluster.yaml'), 'utf8')
    expect(cluster).toContain('type: service')
    expect(cluster).toContain('endpoint: ws://127.0.0.1:7000/v1/clusters/demo-app/ws')
    const validate = await mesh(['validate', dir, '--json'])
    expect(validate.code).toBe(0)
    expect(json(validate).findings).toEqual([])
    expect(json(validate).summary).toMatchObject({errors: 0, warnings: 0, infos: 0})
  })

  it('without a terminal and without --yes, takes defaults and says so on stderr, never waiting on stdin', async () => {
    const dir = await tempDir('my-proj-')
    const result = await mesh(['init'], {cwd: dir})
    expect(result.code).toBe(0)
    expect(result.errorText).toMatch(/No terminal to ask on: using defaults for name, id, type, hub/)
    expect(JSON.parse(await readFile(join(dir, 'mesh.json'), 'utf8'))).toEqual({mesh_version: 1, hub: {url: 'https://mesh.dev', docs: 'https://mesh.dev/docs'}})
  })

  it('re-running keeps every file, and --json lists the outcome of each', async () => {
    const dir = await tempDir()
    await mesh(['init', dir, '--yes'])
    await writeFile(join(dir, '.mesh/context/overview.md'), '---\ntitle: Mine\nupdated: 2026-01-01\n---\nmy words\n')
    const again = await mesh(['init', dir, '--json', '--name', 'Ignored'])
    expect(again.code).toBe(0)
    const result = json(again)
    expect(result.files.length).toBe(33)
    expect(result.files.every((file: {outcome: string}) => file.outcome === 'kept')).toBe(true)
    // The identity already written wins over defaults; flags given win over it.
    expect(result.answers.name).toBe('Ignored')
    expect(await readFile(join(dir, '.mesh/context/overview.md'), 'utf8')).toBe('---\ntitle: Mine\nupdated: 2026-01-01\n---\nmy words\n')
  })

  it('rejects bad answers with exit 2 and writes nothing', async () => {
    const dir = await tempDir()
    for (const args of [['--id', 'Bad Id'], ['--type', 'web'], ['--hub', 'not-a-url']]) {
      const result = await mesh(['init', dir, '--yes', ...args])
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
    const jsonError = await mesh(['init', dir, '--yes', '--json', '--id', 'X'])
    expect(jsonError.code).toBe(2)
    expect(json(jsonError)).toEqual({error: {code: 'usage_id_invalid', message: expect.any(String), field: 'id'}})
    await expect(readFile(join(dir, 'mesh.json'))).rejects.toThrow()
  })
})
