/**
 * `returns` paths (spec Skill: "flat dotted paths the successful response
 * promises, nested paths allowed"): their grammar, and whether a skill's
 * output schema can hold them. The walk reads a path the way the registry's
 * prober does (readPath in src/registry/probe/public-card.ts): `a.b[0].c`
 * and `a.b.0.c` index an array, and a name step on an array reads its first
 * item.
 */
import {isObject} from './collector.js'
import {MAX_SCHEMA_WALK_DEPTH, RETURNS_PATH_PATTERN} from './constants.js'

type Step = {kind: 'name'; name: string} | {kind: 'index'; index: number}

/** Why a `returns` entry is not a flat dotted path; undefined when it is one. */
export function returnsPathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'is empty'
  if (path.startsWith('$') || path.startsWith('/')) return `${JSON.stringify(path)} is a JSONPath or JSON pointer; write the dotted path alone (e.g. "a.b[0].c")`
  if (/\.\.|^\.|\.$/.test(path)) return `${JSON.stringify(path)} has an empty step`
  if (!RETURNS_PATH_PATTERN.test(path)) return `${JSON.stringify(path)} is not a flat dotted path (names joined by dots, each optionally followed by [<index>], no spaces)`
  return undefined
}

function steps(path: string): Step[] {
  const out: Step[] = []
  for (const part of path.split('.')) {
    const name = part.replace(/\[\d+\]/g, '')
    out.push(/^\d+$/.test(name) ? {kind: 'index', index: Number(name)} : {kind: 'name', name})
    for (const match of part.matchAll(/\[(\d+)\]/g)) out.push({kind: 'index', index: Number(match[1])})
  }
  return out
}

/** What the walk learnt: the path fits, the schema forbids it, or the schema does not declare it. */
export type Fit = 'fits' | 'forbidden' | 'undeclared'

const worst = (a: Fit, b: Fit): Fit => (a === 'forbidden' || b === 'forbidden' ? 'forbidden' : a === 'undeclared' || b === 'undeclared' ? 'undeclared' : 'fits')
const best = (a: Fit, b: Fit): Fit => (a === 'fits' || b === 'fits' ? 'fits' : a === 'undeclared' || b === 'undeclared' ? 'undeclared' : 'forbidden')

function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined // remote refs: not followed, anything goes
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(node) && !Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

const typesOf = (schema: Record<string, unknown>): string[] | undefined =>
  typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : undefined

const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', 'required', 'propertyNames']
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'contains', 'minItems', 'maxItems']

function walk(schema: unknown, path: readonly Step[], root: unknown, depth: number): Fit {
  if (depth > MAX_SCHEMA_WALK_DEPTH || schema === true || schema === undefined) return 'fits'
  if (schema === false) return 'forbidden'
  if (!isObject(schema)) return 'fits'
  let fit: Fit = 'fits'
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref)
    if (target !== undefined) fit = worst(fit, walk(target, path, root, depth + 1))
  }
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) fit = worst(fit, walk(branch, path, root, depth + 1))
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (Array.isArray(branches) && branches.length > 0) fit = worst(fit, branches.map((branch) => walk(branch, path, root, depth + 1)).reduce(best))
  }
  if (fit === 'forbidden' || path.length === 0) return fit
  return worst(fit, stepInto(schema, path, root, depth))
}

/** The first step of `path` taken inside `schema` (as an object or an array, whichever the schema allows). */
function stepInto(schema: Record<string, unknown>, path: readonly Step[], root: unknown, depth: number): Fit {
  const [step, ...rest] = path
  const types = typesOf(schema)
  const objectish = OBJECT_KEYWORDS.some((key) => key in schema)
  const arrayish = ARRAY_KEYWORDS.some((key) => key in schema)
  // No type and no object or array keyword: this level says nothing about the step (its $ref or branches may).
  if (!types && !objectish && !arrayish) return 'fits'
  const canObject = types ? types.includes('object') : objectish
  const canArray = types ? types.includes('array') : arrayish
  let fit: Fit = 'forbidden'
  if (canObject) {
    const name = step.kind === 'name' ? step.name : String(step.index)
    const properties = isObject(schema.properties) ? schema.properties : {}
    const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []
    let viaObject: Fit
    if (Object.hasOwn(properties, name)) viaObject = walk(properties[name], rest, root, depth + 1)
    else {
      const pattern = patterns.find(([source]) => {
        try {
          return new RegExp(source, 'u').test(name)
        } catch {
          return false
        }
      })
      if (pattern) viaObject = walk(pattern[1], rest, root, depth + 1)
      else if (schema.additionalProperties === false) viaObject = 'forbidden'
      else if (isObject(schema.additionalProperties)) viaObject = walk(schema.additionalProperties, rest, root, depth + 1)
      else viaObject = Object.keys(properties).length > 0 || patterns.length > 0 ? 'undeclared' : 'fits'
    }
    fit = best(fit, viaObject)
  }
  if (canArray) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
    const itemAt = (index: number) => (index < prefix.length ? prefix[index] : schema.items)
    // A name step on an array reads the first item's field (the prober's readPath); an index step reads that item.
    const viaArray = step.kind === 'index' ? walk(itemAt(step.index), rest, root, depth + 1) : walk(itemAt(0), path, root, depth + 1)
    fit = best(fit, viaArray)
  }
  return fit
}

/** Whether a well-formed `returns` path fits a skill's output schema. */
export function returnsFit(outputSchema: Record<string, unknown>, path: string): Fit {
  return walk(outputSchema, steps(path), outputSchema, 0)
}
