/**
 * The `card-schema` rule: schemas/public-card.schema.json (with skill and
 * pricing by $ref), compiled once in the process-wide schema registry.
 */
import type {ErrorObject} from 'ajv'
import {describeSchemaError, getValidator} from '../../lib/schemas.js'
import {pointer} from './collector.js'
import {cardRule} from './rules.js'
import type {Finding} from './types.js'

/** Where an ajv error points: the missing key itself for `required`, else the value. */
function errorPath(error: ErrorObject): string {
  if (error.keyword === 'required') return error.instancePath + pointer((error.params as {missingProperty: string}).missingProperty)
  return error.instancePath
}

/**
 * One `card-schema` finding per offending path. `skip` holds the paths that a
 * more precise rule already reported, so the same value is not flagged twice.
 */
export function schemaFindings(card: unknown, skip: (path: string) => boolean): Finding[] {
  const validate = getValidator('public-card')
  if (validate(card)) return []
  const seen = new Set<string>()
  const findings: Finding[] = []
  for (const error of validate.errors ?? []) {
    // `if`/`then` and combinator wrappers repeat what their inner error says.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue
    const path = errorPath(error)
    if (seen.has(path) || skip(path)) continue
    seen.add(path)
    findings.push({severity: cardRule('card-schema').severity, rule: 'card-schema', message: describeSchemaError(error, card), path})
  }
  return findings
}
