/**
 * `.mesh/public/links.yaml` as the daemon reads and rewrites it (spec: Links
 * registry). Every rewrite goes through updateLinks(): one at a time per
 * project (so two patches never lose each other's change), edited as a YAML
 * document (comments, key order and quoting survive), checked against
 * schemas/links-yaml.schema.json before anything is written, written by the
 * project writer (snapshot, atomic), then announced as `links.updated`.
 * The link-patch route and version issuing both use it.
 */
import {dirname} from 'node:path'
import type {ErrorObject} from 'ajv'
import {Document, isMap, isScalar, isSeq, parseDocument, type YAMLMap, type YAMLSeq} from 'yaml'
import {ensureContainedFolder, isPathRefused} from '../../lib/contained-files.js'
import {conflict, MeshError} from '../../lib/errors.js'
import {getValidator, describeSchemaError, instancePathToField} from '../../lib/schemas.js'
import {FILE_EVENT_TYPES, type LinksUpdatedData} from '../../protocol/watch.js'
import {STANDARD_PATHS} from '../../standard/constants.js'
import {describeReadError} from '../../standard/frontmatter.js'
import type {DaemonContext} from '../context.js'
import {readProjectText} from '../project-files.js'
import {LINKS_LOCK_FILE, withFileLock} from './file-lock.js'

/** Relative to `.mesh/`. */
export const LINKS_FILE = STANDARD_PATHS.links

export interface LinksEntry {
  id: string
  local?: Record<string, unknown>
  prod?: Record<string, unknown>
  repo?: Record<string, unknown>
  notes?: string
  [key: string]: unknown
}

export interface LinksRegistry {
  version: number
  modules: LinksEntry[]
  [key: string]: unknown
}

/** spec: a missing file is read as version 1 with no modules. */
export const emptyLinks = (): LinksRegistry => ({version: 1, modules: []})

const linksLocked = (owner: number) =>
  new MeshError('unavailable', 'links_locked', `.mesh/${LINKS_FILE} is being rewritten by another process (pid ${owner}) for too long; try again`)

const brokenFile = (why: string, field?: string) => conflict('links_yaml_invalid', `.mesh/${LINKS_FILE} ${why}; fix the file by hand`, field === undefined ? undefined : {field})

/** The file's text, or undefined when it does not exist. A symlink is not followed: GET /links is open to every local user. */
async function readLinksText(context: DaemonContext): Promise<string | undefined> {
  try {
    return (await readProjectText(context, LINKS_FILE)) ?? undefined
  } catch (error) {
    if (isPathRefused(error)) throw brokenFile(`is not a regular file in a real folder (${String(error.details?.reason)}; the daemon follows no symbolic link)`)
    throw error
  }
}

/** Parses the text as a YAML document; 409 `links_yaml_invalid` when it is not YAML or not a mapping. */
function parseLinks(text: string): Document.Parsed {
  const document = parseDocument(text, {uniqueKeys: true, prettyErrors: true})
  if (document.errors.length > 0) throw brokenFile(`is not valid YAML: ${describeReadError(document.errors[0])}`)
  if (document.contents !== null && !isMap(document.contents)) throw brokenFile('is not a mapping (version, modules)')
  return document
}

function registryOf(document: Document): LinksRegistry {
  // maxAliasCount keeps a file of nested aliases from blowing up into gigabytes.
  const data = document.contents === null ? null : (document.toJS({maxAliasCount: 100}) as LinksRegistry)
  return data ?? emptyLinks()
}

/** The registry as JSON: what GET /links answers. */
export async function readLinks(context: DaemonContext): Promise<LinksRegistry> {
  const text = await readLinksText(context)
  return text === undefined ? emptyLinks() : registryOf(parseLinks(text))
}

/** The `modules` sequence of a document (created when missing); 409 when it is something else. */
export function modulesOf(document: Document): YAMLSeq {
  if (document.contents === null) document.contents = document.createNode(emptyLinks()) as unknown as typeof document.contents
  const modules = document.get('modules', true)
  if (modules === undefined || (isScalar(modules) && modules.value === null)) {
    document.set('modules', document.createNode([]))
    return document.get('modules', true) as YAMLSeq
  }
  if (!isSeq(modules)) throw brokenFile('has a modules key that is not a list', 'modules')
  return modules
}

/** The index and node of a module's entry (the first when listed twice), or undefined. */
export function findEntry(document: Document, id: string): {index: number; entry: YAMLMap} | undefined {
  const modules = modulesOf(document)
  const index = modules.items.findIndex((item) => isMap(item) && item.get('id') === id)
  return index === -1 ? undefined : {index, entry: modules.items[index] as YAMLMap}
}

/** A module's entry, appended as `- id: <id>` when the file has none yet. */
export function ensureEntry(document: Document, id: string): {index: number; entry: YAMLMap} {
  const found = findEntry(document, id)
  if (found) return found
  const modules = modulesOf(document)
  // `modules: []` written by hand would make every new entry a flow mapping on that one line.
  if (modules.items.length === 0) modules.flow = false
  modules.add(document.createNode({id}))
  return {index: modules.items.length - 1, entry: modules.items[modules.items.length - 1] as YAMLMap}
}

/** Keeps `modules:` followed by an unindented `- ` as the file had it (the yaml package indents by default). */
const indentsSequences = (text: string | undefined) => !/^modules:[ \t]*(#.*)?\r?\n(?:[ \t]*(#.*)?\r?\n)*- /m.test(text ?? '')

const tails = new Map<string, Promise<void>>()

/**
 * Runs `work` alone for this project's links.yaml: later callers wait for
 * earlier ones, so read-modify-write never interleaves within this process.
 */
export async function withLinksLock<T>(context: DaemonContext, work: () => Promise<T>): Promise<T> {
  const key = context.writer.resolve(LINKS_FILE)
  const previous = tails.get(key) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  const tail = previous.then(() => mine)
  tails.set(key, tail)
  await previous
  try {
    return await work()
  } finally {
    release()
    if (tails.get(key) === tail) tails.delete(key)
  }
}

export interface LinksUpdate<T> {
  /** The module whose entry changes: named in the `links.updated` event. */
  module: string
  /** Recorded with the snapshot, e.g. `links.patch`, `version.next`. */
  reason: string
  /** Edits the document in place (findEntry/ensureEntry, setIn, deleteIn); throwing leaves the file as it was. */
  mutate(document: Document, current: LinksRegistry): T | Promise<T>
  /**
   * The error for a result that fails the schema, when the caller caused it
   * (e.g. 400 naming the body field); undefined means the file itself is
   * broken: 409 `links_yaml_invalid` naming the file's field.
   */
  refuse?(errors: ErrorObject[]): MeshError | undefined
}

export interface LinksUpdated<T> {
  result: T
  /** The registry after the change. */
  registry: LinksRegistry
  /** False when the change left the text as it was (nothing written, no event). */
  written: boolean
}

/** The one way the daemon rewrites links.yaml (see the file comment). */
export function updateLinks<T>(context: DaemonContext, update: LinksUpdate<T>): Promise<LinksUpdated<T>> {
  // In-process order first, then the lock file for other processes (docs/daemon.md, Links and versions).
  return withLinksLock(context, async () => {
    // The lock's folder is made a real one first: a linked .runtime/ is refused, nothing is created outside.
    await ensureContainedFolder(context.meshPath(), dirname(LINKS_LOCK_FILE))
    return withFileLock(context.meshPath(LINKS_LOCK_FILE), async () => {
      const text = await readLinksText(context)
      const document = text === undefined || text.trim() === '' ? new Document(emptyLinks()) : parseLinks(text)
      const result = await update.mutate(document, registryOf(document))
      let next = document.toString({lineWidth: 0, indentSeq: indentsSequences(text)})
      if (text?.includes('\r\n')) next = next.replace(/\r?\n/g, '\r\n')
      const registry = registryOf(document)
      const validate = getValidator<LinksRegistry>('links-yaml')
      if (!validate(registry)) {
        const errors = validate.errors ?? []
        throw update.refuse?.(errors) ?? brokenFile(`would not be valid: ${describeSchemaError(errors[0], registry)}`, instancePathToField(errors[0].instancePath))
      }
      if (next === text) return {result, registry, written: false}
      await context.writer.write(LINKS_FILE, next, {reason: update.reason})
      context.events.publish(FILE_EVENT_TYPES.links, {module: update.module, by: 'daemon'} satisfies LinksUpdatedData)
      return {result, registry, written: true}
    }, {busy: linksLocked})
  })
}
