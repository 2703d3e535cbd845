import {readFileSync, readdirSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {ErrorObject, ValidateFunction} from 'ajv'
import type {Ajv2020} from 'ajv/dist/2020.js'
import {invalid} from './errors.js'
import {patternWords} from './schema-words.js'

// ajv and ajv-formats (CommonJS, ~90 modules, 60–70 ms) are required on the first validation, not when this
// file is imported: most commands and the daemon's start import a module that may validate, few validate
// (docs/architecture.md, Start-up). require() keeps getValidator synchronous for its callers.
const require = createRequire(import.meta.url)

/** Every schema's `$id` is this prefix + `<name>.schema.json` (the file name in schemas/). */
export const SCHEMA_ID_PREFIX = 'https://mesh.dev/schemas/'

/** schemas/ sits at the package root, two levels above both src/lib and dist/lib. */
export const SCHEMAS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas')

type Ajv = Ajv2020
let ajv: Ajv | undefined
const compiled = new Map<string, ValidateFunction>()

/** One Ajv instance for the process, holding every schema in schemas/; each is compiled once, on first use. */
function instance(): Ajv {
  if (ajv) return ajv
  // validateSchema: false skips checking each schema against the 2020-12 meta-schema at start-up
  // (50–100 ms of every `mesh validate`); test/lib/schemas.test.ts does that check instead.
  const {Ajv2020} = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
  // ajv-formats ships CommonJS with its function as `default`.
  const addFormats = (require('ajv-formats') as {default: (ajv: Ajv2020) => Ajv2020}).default
  ajv = new Ajv2020({allErrors: true, strict: true, allowUnionTypes: true, useDefaults: false, validateSchema: false})
  addFormats(ajv)
  // "x-" keywords carry editor/tooling hints and are ignored by validation.
  ajv.addVocabulary(['x-mesh-rule', 'x-mesh-deprecated'])
  for (const file of readdirSync(SCHEMAS_DIR)) {
    if (!file.endsWith('.schema.json')) continue
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')))
  }
  return ajv
}

/** The compiled validator for `schemas/<name>.schema.json`. */
export function getValidator<T = unknown>(name: string): ValidateFunction<T> {
  let validate = compiled.get(name)
  if (!validate) {
    validate = instance().getSchema(SCHEMA_ID_PREFIX + name + '.schema.json')
    if (!validate) throw new Error(`No schema named ${name} in ${SCHEMAS_DIR}`)
    compiled.set(name, validate)
  }
  return validate as ValidateFunction<T>
}

/** `/a/b/0` → `a.b[0]`: the field path users see in error bodies. */
export function instancePathToField(path: string): string {
  if (path === '') return '$'
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '')
}

/** The value at an ajv instance path (`/a/0/b`) of `data`. */
function valueAt(data: unknown, path: string): unknown {
  let value = data
  for (const part of path.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return value
}

/**
 * A one-line human reading of an ajv error. A pattern is said in words
 * (src/lib/schema-words.ts), never as the raw regex message; with `data` (the
 * value validated), the offending value is quoted, cut at 40 characters.
 */
export function describeSchemaError(error: ErrorObject, data?: unknown): string {
  const where = instancePathToField(error.instancePath)
  switch (error.keyword) {
    case 'pattern': {
      const value = data === undefined ? undefined : valueAt(data, error.instancePath)
      const got = typeof value === 'string' ? `; got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}` : ''
      return `${where === '$' ? 'the value' : where} must be ${patternWords((error.params as {pattern: string}).pattern)}${got}`
    }
    case 'additionalProperties':
      return `${where}: unknown key "${(error.params as {additionalProperty: string}).additionalProperty}"`
    case 'required':
      return `${where}: missing required key "${(error.params as {missingProperty: string}).missingProperty}"`
    case 'enum':
      return `${where}: must be one of ${(error.params as {allowedValues: unknown[]}).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    default:
      return `${where}: ${error.message ?? 'is invalid'}`
  }
}

/**
 * Validates `value` against a named schema and throws a 400-kind MeshError
 * naming the first offending field. Returns the value typed as T.
 */
export function assertValid<T>(name: string, value: unknown, code = 'invalid_body'): T {
  const validate = getValidator<T>(name)
  if (validate(value)) return value
  const first = validate.errors![0]
  const field = first.keyword === 'required'
    ? instancePathToField(`${first.instancePath}/${(first.params as {missingProperty: string}).missingProperty}`)
    : first.keyword === 'additionalProperties'
      ? instancePathToField(`${first.instancePath}/${(first.params as {additionalProperty: string}).additionalProperty}`)
      : instancePathToField(first.instancePath)
  throw invalid(code, describeSchemaError(first, value), {field})
}
