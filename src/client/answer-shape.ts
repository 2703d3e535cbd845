/**
 * A small check that a server's success answer has the fields a client is
 * about to read, so a proxy's page, an old server or another service on the
 * port gives a clear `<service>_bad_answer` instead of a TypeError deep in
 * the CLI's rendering.
 */
import {MeshError} from '../lib/errors.js'

/** A field's JSON type; a trailing `?` also allows null. */
export type FieldType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string?' | 'boolean?' | 'number?' | 'object?'

/** The fields an answer must have; listed fields only, extra ones are fine. */
export type AnswerShape = Record<string, FieldType>

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)
const a = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)

/** What is wrong with `body` (one short phrase), or null when it has the shape. */
export function shapeProblem(body: unknown, shape: AnswerShape, at = ''): string | null {
  if (typeOf(body) !== 'object') return `${at || 'the body'} is ${typeOf(body) === 'undefined' ? 'empty' : `a JSON ${typeOf(body)}`}, not an object`
  const record = body as Record<string, unknown>
  for (const [field, wanted] of Object.entries(shape)) {
    const nullable = wanted.endsWith('?')
    const base = nullable ? wanted.slice(0, -1) : wanted
    const actual = typeOf(record[field])
    if (actual === base || (nullable && actual === 'null')) continue
    if (actual === 'undefined') return `${at}${field} is missing`
    return `${at}${field} is ${a(actual)}, not ${a(base)}${nullable ? ' or null' : ''}`
  }
  return null
}

/** The first problem among the items of a list (each checked against `shape`), or null. */
export function listProblem(items: unknown[], shape: AnswerShape, name: string): string | null {
  for (const [i, item] of items.entries()) {
    const problem = shapeProblem(item, shape, `${name}[${i}].`)
    if (problem) return problem.replace(/^(\S+)\. is/, '$1 is')
  }
  return null
}

/** Throws `registry_bad_answer` when `answer` lacks the shape; for clients that call callJson without a check. */
export function assertAnswerShape<T>(answer: T, shape: AnswerShape, what: string, registry: string, items?: {list: string; shape: AnswerShape}): T {
  const problem = shapeProblem(answer, shape) ?? (items ? listProblem((answer as Record<string, unknown[]>)[items.list], items.shape, items.list) : null)
  if (problem) {
    throw new MeshError('unavailable', 'registry_bad_answer', `The registry at ${registry} answered ${what} with an unexpected body (${problem}); is that address a mesh registry of this version?`)
  }
  return answer
}
