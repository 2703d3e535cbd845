import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {legacyEnvHint, oldDataDir} from '../../src/cli/old-data-hint.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
async function layout() {
  const root = await mkdtemp(join(tmpdir(), 'mesh-old-data-'))
  dirs.push(root)
  const old = [join(root, 'mesh-registry-data'), join(root, 'home', '.mesh', 'data')]
  return {root, data: join(root, 'mesh-data'), old}
}

describe('oldDataDir', () => {
  it('finds the first old default folder holding mesh.db while the new one does not exist', async () => {
    const {data, old} = await layout()
    expect(oldDataDir(data, true, old)).toBeNull()
    await mkdir(old[1], {recursive: true})
    await writeFile(join(old[1], 'mesh.db'), '')
    expect(oldDataDir(data, true, old)).toBe(old[1])
    await mkdir(old[0])
    await writeFile(join(old[0], 'mesh.db'), '')
    expect(oldDataDir(data, true, old)).toBe(old[0])
  })
  it('says nothing once the new folder exists, or when --data was chosen', async () => {
    const {data, old} = await layout()
    await mkdir(old[0])
    await writeFile(join(old[0], 'mesh.db'), '')
    expect(oldDataDir(data, false, old)).toBeNull()
    await mkdir(data)
    expect(oldDataDir(data, true, old)).toBeNull()
  })
})

describe('legacyEnvHint', () => {
  it('warns about MESH_DATA_DIR only when --data fell back to its default', () => {
    expect(legacyEnvHint({MESH_DATA_DIR: '/srv/reg'}, '/w/mesh-data', true)).toContain('set MESH_DATA=/srv/reg')
    expect(legacyEnvHint({MESH_DATA_DIR: '/srv/reg'}, '/w/mesh-data', false)).toBeNull()
    expect(legacyEnvHint({}, '/w/mesh-data', true)).toBeNull()
  })
})
