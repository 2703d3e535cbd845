/**
 * Compiling a skill's own input or output schema with the options the kit
 * compiles input schemas with (src/agent/kit/input-validator.ts: draft
 * 2020-12, formats, unknown keywords and `$schema` markers tolerated; a test
 * keeps the two verdicts in step), so lint refuses what createAgent would.
 * One Ajv for the process; each schema is removed from it once compiled, so
 * two skills may reuse one `$id` and a long-lived process keeps nothing.
 */
import type {ValidateFunction} from 'ajv'
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {describeSchemaError, instancePathToField} from '../../lib/schemas.js'

// ajv-formats ships CommonJS; under NodeNext its default export is nested one level.
const addFormats = (addFormatsModule as unknown as {default: (ajv: Ajv2020) => Ajv2020}).default

/** The compiled schema, or the compiler's reason. */
export function compileSkillSchema(schema: Record<string, unknown>): {validate: ValidateFunction} | {error: string} {
  const ajv = instance()
  try {
    return {validate: ajv.compile(schema)}
  } catch (error) {
    return {error: (error as Error).message}
  } finally {
    ajv.removeSchema(schema)
  }
}

let shared: Ajv2020 | undefined
function instance(): Ajv2020 {
  if (!shared) {
    shared = new Ajv2020({strict: false, allErrors: false, allowUnionTypes: true, validateSchema: false})
    addFormats(shared)
  }
  return shared
}

/** The first reason a value fails a compiled schema, led by its field (`text: must be string`). */
export function firstFailure(validate: ValidateFunction): string {
  const error = validate.errors?.[0]
  if (!error) return 'does not match'
  if (error.keyword === 'required') {
    const field = instancePathToField(`${error.instancePath}/${(error.params as {missingProperty: string}).missingProperty}`)
    return `missing required field ${field}`
  }
  if (error.keyword === 'additionalProperties') return `unknown field ${instancePathToField(`${error.instancePath}/${(error.params as {additionalProperty: string}).additionalProperty}`)}`
  // A pattern in words, never the raw regex message (issue 21).
  if (error.keyword === 'pattern') return describeSchemaError(error)
  return `${instancePathToField(error.instancePath)} ${error.message ?? 'is invalid'}`
}
