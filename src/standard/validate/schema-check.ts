import type {ErrorObject} from 'ajv'
import {getValidator} from '../../lib/schemas.js'
import type {FileKind, ProjectFile} from '../project/index.js'
import {instancePathToField} from '../../lib/schemas.js'
import {patternWords} from '../../lib/schema-words.js'
import type {FindingCollector} from './collector.js'
import type {Severity} from './types.js'

/** Which schema in schemas/ describes each kind of file. */
export const SCHEMA_OF_KIND: Partial<Record<FileKind, string>> = {
  bootstrap: 'mesh-json',
  cluster: 'cluster-yaml',
  links: 'links-yaml',
  task: 'task',
  'archived-task': 'task',
  initiative: 'initiative',
  workflow: 'workflow',
  protocol: 'workflow',
  'run-log': 'run-log',
  doc: 'doc',
  team: 'team-member',
  context: 'context',
  decision: 'context',
  criterion: 'context',
  queue: 'queue',
  timeline: 'timeline-event',
  'debug-stream': 'debug-event',
}

/**
 * Runtime logs the daemon appends and nobody commits (deny-list): their
 * findings are warnings, never errors (issue 19). A line torn by a killed
 * daemon or written by another tool must not fail `mesh validate` — or the
 * pre-commit check it runs in — over a file that is not committed. The
 * loader does not even read `timeline/` (classify.ts); the debug stream,
 * kept under 5 MB by the daemon, is still checked.
 */
const RUNTIME_LOG_KINDS = new Set<FileKind>(['timeline', 'debug-stream'])

/** Kinds whose frontmatter is mandatory (docs are governance R4, reported as r4-frontmatter). */
const NEEDS_FRONTMATTER = new Set<FileKind>(['task', 'archived-task', 'initiative', 'workflow', 'protocol', 'run-log', 'team', 'context', 'decision', 'criterion', 'doc'])

/** Schema rules whose message is the description of the sub-schema carrying the x-mesh-rule. */
const DESCRIBED_RULES = new Set(['modules-general', 'modules-project', 'private-invite'])

/**
 * Parse and schema findings of one file: broken syntax (with its line),
 * missing frontmatter, and every ajv error mapped to the offending key.
 */
export function checkFileSchema(file: ProjectFile, findings: FindingCollector): void {
  const severity = RUNTIME_LOG_KINDS.has(file.kind) ? 'warning' : undefined
  if (file.parseError) {
    findings.add(file, 'parse', file.parseError.message, {line: file.parseError.line, column: file.parseError.column}, severity)
    return
  }
  const schema = SCHEMA_OF_KIND[file.kind]
  if (!schema || file.text === undefined) return
  if (file.records) {
    const validate = getValidator(schema)
    for (const record of file.records) {
      if (record.error) {
        findings.add(file, 'parse', record.error.message, {line: record.error.line, column: record.error.column}, severity)
      } else if (!validate(record.data)) {
        report(file, schema, record.data, validate.errors ?? [], findings, record.line, severity)
      }
    }
    return
  }
  if (NEEDS_FRONTMATTER.has(file.kind) && !file.hasFrontmatter) {
    if (file.kind === 'doc') findings.add(file, 'r4-frontmatter', 'a doc needs frontmatter: title, category, updated, owner, status', {line: 1, column: 1})
    else findings.add(file, 'frontmatter-required', `a ${file.kind.replace('-', ' ')} file needs a --- frontmatter block (see schemas/${schema}.schema.json)`, {line: 1, column: 1})
    return
  }
  const data = file.data ?? (file.yamlText !== undefined ? {} : undefined)
  const validate = getValidator(schema)
  if (!validate(data)) report(file, schema, data, validate.errors ?? [], findings)
}

function report(file: ProjectFile, schema: string, data: unknown, errors: ErrorObject[], findings: FindingCollector, recordLine?: number, severity?: Severity): void {
  const root = getValidator(schema).schema as Record<string, unknown>
  const seen = new Set<string>()
  const valueErrorAt = new Set<string>()
  for (const error of errors) {
    if (error.keyword === 'if') continue // ajv's "must match then" echo; the then-error says what is wrong
    if (error.schemaPath.includes('/contains/')) continue // per-item misses of a `contains`; its own error says it
    // One finding per offending value: "yesterday" fails both format and pattern; say it once.
    const perKey = error.keyword === 'required' || error.keyword === 'additionalProperties'
    if (!perKey && valueErrorAt.has(error.instancePath)) continue
    if (!perKey) valueErrorAt.add(error.instancePath)
    const message = describe(error, data, root)
    const pointer =
      error.keyword === 'additionalProperties'
        ? `${error.instancePath}/${escape((error.params as {additionalProperty: string}).additionalProperty)}`
        : error.instancePath
    const key = `${pointer}\0${message}`
    if (seen.has(key)) continue
    seen.add(key)
    findings.add(file, 'schema', message, {pointer, key: error.keyword === 'additionalProperties', recordLine}, severity)
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/** The value at a JSON pointer. */
function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data
  let node: unknown = data
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return node
}

/** The sub-schemas along an ajv schemaPath (`#/properties/a/items/...`), outermost first. */
function schemaTrail(root: Record<string, unknown>, schemaPath: string): Record<string, unknown>[] {
  const trail: Record<string, unknown>[] = [root]
  let node: unknown = root
  for (const segment of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (!segment || node === null || typeof node !== 'object') break
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) trail.push(node as Record<string, unknown>)
  }
  return trail
}

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value))

/** One sentence per ajv error, naming the key, the value and what is allowed. */
function describe(error: ErrorObject, data: unknown, root: Record<string, unknown>): string {
  const trail = schemaTrail(root, error.schemaPath)
  const described = [...trail].reverse().find((node) => DESCRIBED_RULES.has(node['x-mesh-rule'] as string))
  if (described && typeof described.description === 'string') return described.description
  const field = instancePathToField(error.instancePath)
  const where = field === '$' ? '' : `${field} `
  const params = error.params as Record<string, unknown>
  const value = valueAt(data, error.instancePath)
  switch (error.keyword) {
    case 'required':
      return `missing required key "${params.missingProperty}"${field === '$' ? '' : ` in ${field}`}`
    case 'additionalProperties': {
      const parent = trail[trail.length - 1]
      const allowed = parent && typeof parent.properties === 'object' ? Object.keys(parent.properties as object) : []
      const allowedText = allowed.length > 0 ? ` (allowed: ${allowed.filter((name) => !isRetired(parent, name)).join(', ')})` : ''
      return `unknown key "${params.additionalProperty}"${field === '$' ? '' : ` in ${field}`}${allowedText}`
    }
    case 'enum':
      return `${where}${show(value)} must be one of ${(params.allowedValues as unknown[]).map(show).join(', ')}`
    case 'const':
      return `${where}must be ${show(params.allowedValue)}`
    case 'pattern':
      return `${where}${show(value)} must be ${patternWords(params.pattern as string)}`
    case 'format':
      return `${where}${show(value)} must be a ${FORMAT_NAMES[params.format as string] ?? params.format}`
    case 'type':
      return `${where}must be ${params.type}${value === null ? ' (it is empty)' : ''}`
    default:
      return `${where}${error.message ?? 'is invalid'}`
  }
}

const isRetired = (schema: Record<string, unknown>, name: string) =>
  Boolean(((schema.properties as Record<string, Record<string, unknown>>)[name] ?? {})['x-mesh-deprecated'])

const FORMAT_NAMES: Record<string, string> = {
  date: 'date (YYYY-MM-DD)',
  'date-time': 'date-time (ISO-8601, e.g. 2026-01-05T10:00:00Z)',
  uri: 'absolute URI',
  uuid: 'UUID',
}
