/**
 * Skill input validation (spec Skill: `inputSchema`, also spelled
 * `input_schema`; DECISIONS Paid calls: the body is validated before any
 * 402). Each skill's schema is compiled once, when the agent is created.
 */
import type {ErrorObject} from 'ajv'
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {invalid} from '../../lib/errors.js'
import {describeSchemaError, instancePathToField} from '../../lib/schemas.js'

// ajv-formats ships CommonJS; under NodeNext its default export is nested one level.
const addFormats = (addFormatsModule as unknown as {default: (ajv: Ajv2020) => Ajv2020}).default

/** Throws 400 `invalid_input` naming the first offending field; returns nothing when the input fits. */
export type InputCheck = (input: unknown) => void

/**
 * A compiler for the skills of one agent. Its own Ajv instance (not the
 * process-wide one of src/lib/schemas.ts): agent authors write schemas in
 * whatever draft they know, so unknown keywords and `$schema` markers are
 * tolerated (strict and meta-schema checks off), and two agents' `$id`s never
 * collide. allErrors stays off: the 400 names only the first field.
 */
export function createInputCompiler(): (skillId: string, schema: Record<string, unknown>) => InputCheck {
  let ajv: Ajv2020 | undefined
  return (skillId, schema) => {
    ajv ??= addFormats(new Ajv2020({strict: false, allErrors: false, allowUnionTypes: true, validateSchema: false}))
    let validate
    try {
      validate = ajv.compile(schema)
    } catch (error) {
      throw new TypeError(`createAgent: skill "${skillId}" has an input schema that does not compile: ${(error as Error).message}`)
    }
    return (input) => {
      if (validate(input)) return
      const first = validate.errors![0]
      throw invalid('invalid_input', `Input does not match the skill's schema: ${describeSchemaError(first)}`, {field: fieldOf(first)})
    }
  }
}

/** The JSON path users see: the missing or unknown key itself, not its parent. */
function fieldOf(error: ErrorObject): string {
  const params = error.params as {missingProperty?: string; additionalProperty?: string}
  if (error.keyword === 'required' && params.missingProperty) return instancePathToField(`${error.instancePath}/${escape(params.missingProperty)}`)
  if (error.keyword === 'additionalProperties' && params.additionalProperty) return instancePathToField(`${error.instancePath}/${escape(params.additionalProperty)}`)
  return instancePathToField(error.instancePath)
}

/** A key as a JSON Pointer segment (instancePathToField decodes it again). */
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')
