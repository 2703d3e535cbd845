/**
 * Imports an agent folder's `handlers.js` / `handlers.mjs` (DECISIONS: Agent
 * folder): its default export maps each skill id to
 * `async (input, ctx) => output`. Whatever goes wrong is one MeshError that
 * names the file (and the line, when Node says it), never a stack trace: the
 * author's code is not ours to print.
 */
import {spawnSync} from 'node:child_process'
import {pathToFileURL} from 'node:url'
import {invalid} from '../../lib/errors.js'
import type {SkillHandlers} from '../kit/types.js'

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * `:line` or `:line:column` of the first place in the file `url` that the
 * error's stack names (a SyntaxError's stack starts with `file:///…:3`,
 * a throw at import time has an `at file:///…:3:9` frame); '' when none.
 */
function placeIn(error: unknown, url: string): string {
  const stack = typeof (error as Error)?.stack === 'string' ? (error as Error).stack! : ''
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const found = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(stack)
  return found ? `:${found[1]}${found[2] ? `:${found[2]}` : ''}` : ''
}

/**
 * `:line` of a syntax error, which Node 20 leaves out of an ESM import's
 * error: `node --check` prints `<path>:<line>` first. Run only on that
 * failure path, so its cost never touches a good start.
 */
function syntaxErrorLine(path: string): string {
  const check = spawnSync(process.execPath, ['--check', path], {encoding: 'utf8', timeout: 10_000})
  const first = (check.stderr ?? '').split('\n', 1)[0]
  return first.startsWith(path + ':') && /:\d+$/.test(first) ? first.slice(path.length) : ''
}

/** The error's own words on one line: `TypeError: x is not a function`, without Node's code frame. */
function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const first = error.message.split('\n').find((line) => line.trim() !== '') ?? ''
  return `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${first.trim()}`
}

/**
 * Imports `path` and returns its default export, checked to be an object of
 * functions. Throws `handlers_failed` (the import threw) or
 * `handlers_invalid` (wrong shape), each starting with `shownPath`.
 */
export async function importHandlers(path: string, shownPath: string = path): Promise<SkillHandlers> {
  const url = pathToFileURL(path).href
  let module: Record<string, unknown>
  try {
    module = (await import(url)) as Record<string, unknown>
  } catch (error) {
    const place = placeIn(error, url) || (error instanceof SyntaxError ? syntaxErrorLine(path) : '')
    throw invalid('handlers_failed', `${shownPath}${place} failed to load: ${oneLine(error)}`)
  }
  const handlers = module.default
  if (!isPlainObject(handlers)) {
    const named = Object.keys(module).filter((name) => name !== 'default')
    const hint = named.length > 0 ? ` (it has named exports ${named.map((n) => `"${n}"`).join(', ')}: write \`export default {${named.join(', ')}}\`)` : ''
    throw invalid('handlers_invalid', `${shownPath} must \`export default\` an object mapping each skill id to an async function${hint}`)
  }
  const notFunctions = Object.entries(handlers).filter(([, value]) => typeof value !== 'function')
  if (notFunctions.length > 0) {
    const list = notFunctions.map(([id, value]) => `"${id}" is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`).join(', ')
    throw invalid('handlers_invalid', `${shownPath}: every value of the default export must be a function (skill id → async (input, ctx) => output); ${list}`)
  }
  return handlers as SkillHandlers
}
