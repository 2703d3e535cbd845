import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {SCHEMAS_DIR, SCHEMA_ID_PREFIX, assertValid, getValidator, instancePathToField} from '../../src/lib/schemas.js'
import {MeshError} from '../../src/lib/errors.js'
import {Ajv2020} from 'ajv/dist/2020.js'

const files = readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.schema.json'))

// One broken schema file would break every validator in the process, so each is compiled here.
describe('schemas/', () => {
  it('holds schemas', () => {
    expect(files.length).toBeGreaterThan(10)
  })
  for (const file of files) {
    it(`${file} is draft 2020-12, has the id of its file name, and compiles`, () => {
      const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8'))
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
      expect(schema.$id).toBe(SCHEMA_ID_PREFIX + file)
      expect(typeof getValidator(file.replace(/\.schema\.json$/, ''))).toBe('function')
    })
    it(`${file} is valid against the draft 2020-12 meta-schema`, () => {
      // The runtime instance skips this check for start-up speed, so it is made here.
      const meta = new Ajv2020({strict: false})
      const valid = meta.validateSchema(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')))
      expect(meta.errors ?? [], file).toEqual([])
      expect(valid).toBe(true)
    })
  }
})

describe('assertValid', () => {
  it('names the missing field in a 400-kind error', () => {
    try {
      assertValid('mesh-json', {mesh_version: 1})
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(MeshError)
      expect((error as MeshError).kind).toBe('invalid')
      expect((error as MeshError).field).toBe('hub')
    }
  })
  it('turns JSON pointers into readable paths', () => {
    expect(instancePathToField('/a/b/0/c~1d')).toBe('a.b[0].c/d')
    expect(instancePathToField('')).toBe('$')
  })
})
