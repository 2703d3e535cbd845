/**
 * Where this machine's client templates come from (issue 18: a repository
 * cannot run code on this machine). docs/daemon.md, Clients.
 *
 * Layers, each over the one before: the defaults (templates.ts) ← the
 * user's own `clients.yaml` in their config folder (mode checked) ← the
 * project's `.mesh/agents/clients.yaml`, only while git does not track it and
 * the user trusted its exact bytes (`mesh trust`). A file mesh refuses is
 * never silently replaced by a layer below: the turns of every client it
 * names fail with the sentence saying why, and so does every turn when it
 * cannot even be read for its names. The same sentences go to /health and to
 * `mesh serve`'s start line.
 */
import {readFile, realpath, stat} from 'node:fs/promises'
import {join} from 'node:path'
import {userConfigDir, userFileProblem} from '../../../lib/user-config.js'
import {isTrackedByGit} from '../../git/tracked.js'
import {ProjectFileError, readProjectFileNoFollow} from '../project-file.js'
import {ClientsFileError, parseClientsFile} from './parse.js'
import {readTrust, sha256} from './trust.js'
import {DEFAULT_CLIENTS, type AccessLevel, type ClientTemplate} from './templates.js'

/** The project's clients file, relative to the project root. */
export const PROJECT_CLIENTS_FILE = '.mesh/agents/clients.yaml'
/** The user's clients file, in their config folder. */
export const USER_CLIENTS_FILE = 'clients.yaml'
/** A clients file is a few templates; anything this large is not one. */
export const MAX_CLIENTS_FILE_BYTES = 256 * 1024

export interface ClientsState {
  /** The templates turns may use, by client name. */
  clients: Record<string, ClientTemplate>
  /** Clients whose turns fail, with the sentence the failed turn carries. */
  refused: Record<string, string>
  /** When a refused file cannot be read for its names: every turn fails with this. */
  refusedAll: string | null
  /** The access levels the files set per member (issue 19), over the defaults of access.ts. */
  access: Record<string, AccessLevel>
  /** Members whose `access:` entry cannot be used: their turns fail with this sentence. */
  refusedAccess: Record<string, string>
  /** Members whose turns get the project's MCP server (`mcp:`, issue 24); off when absent. */
  mcp: Record<string, boolean>
  /** Everything an operator should see (/health, the start line). */
  warnings: string[]
}

export interface ClientSourceOptions {
  /** The project root (the folder holding `.mesh/`). */
  root: string
  /** Where XDG_CONFIG_HOME/HOME are read (default: this process's). */
  env?: NodeJS.ProcessEnv
}

const listed = (names: string[]) => (names.length === 1 ? `client ${names[0]}` : `clients ${names.join(', ')}`)

/** Names a refused file's clients, or null when its text does not say (not YAML). */
function namesIn(text: string): string[] | null {
  try {
    return parseClientsFile(text, {}, '').names
  } catch {
    return null
  }
}

function refuse(state: ClientsState, text: string | null, why: string, until: string) {
  const names = text === null ? null : namesIn(text)
  if (names === null) {
    const sentence = `${why}: no turn runs until ${until}`
    state.refusedAll = state.refusedAll ?? sentence
    state.warnings.push(sentence)
    return
  }
  if (names.length === 0) return
  const sentence = `${why}: it is not used, and turns of ${listed(names)} fail until ${until}`
  for (const name of names) state.refused[name] = sentence
  state.warnings.push(sentence)
}

function apply(state: ClientsState, text: string, where: string) {
  try {
    const parsed = parseClientsFile(text, state.clients, where)
    for (const [name, template] of Object.entries(parsed.templates)) {
      state.clients[name] = template
      delete state.refused[name]
    }
    for (const [name, problem] of Object.entries(parsed.unusable)) {
      const sentence = `${where}: ${problem}; turns of client ${name} fail until it is fixed`
      state.refused[name] = sentence
      state.warnings.push(sentence)
    }
    for (const [member, level] of Object.entries(parsed.access)) {
      state.access[member] = level
      delete state.refusedAccess[member]
    }
    Object.assign(state.mcp, parsed.mcp)
    state.warnings.push(...parsed.mcpProblems)
    for (const [member, problem] of Object.entries(parsed.accessProblems)) {
      // Never a silent fallback to another level: the member's turns fail until the entry is fixed.
      const sentence = `${problem}; turns of ${member} fail until it is fixed`
      state.refusedAccess[member] = sentence
      state.warnings.push(sentence)
    }
  } catch (error) {
    if (!(error instanceof ClientsFileError)) throw error
    const sentence = `${error.message}: no turn runs until it is fixed`
    state.refusedAll = state.refusedAll ?? sentence
    state.warnings.push(sentence)
  }
}

async function userLayer(state: ClientsState, env: NodeJS.ProcessEnv) {
  const path = join(userConfigDir(env), USER_CLIENTS_FILE)
  const exists = await stat(path).then(
    () => true,
    () => false,
  )
  if (!exists) return
  const problem = await userFileProblem(path).catch((error: Error) => `${path} cannot be checked (${error.message})`)
  const text = await readFile(path, 'utf8').catch(() => null)
  if (problem) return refuse(state, text, problem, `that is fixed`)
  if (text === null) return refuse(state, null, `${path} cannot be read`, 'it can')
  apply(state, text, path)
}

async function projectLayer(state: ClientsState, root: string, env: NodeJS.ProcessEnv) {
  const shown = PROJECT_CLIENTS_FILE
  let bytes: Buffer
  try {
    bytes = await readProjectFileNoFollow(root, PROJECT_CLIENTS_FILE, MAX_CLIENTS_FILE_BYTES)
  } catch (error) {
    if (error instanceof ProjectFileError && error.reason === 'missing') return
    const why = error instanceof ProjectFileError ? error.message : `${shown} cannot be read (${(error as Error).message})`
    return refuse(state, null, why, `it is a plain file of this project`)
  }
  const text = bytes.toString('utf8')
  const tracked = await isTrackedByGit(root, PROJECT_CLIENTS_FILE, env)
  if ('unknown' in tracked) return refuse(state, text, `git could not say whether ${shown} is tracked (${tracked.unknown})`, 'it can')
  if (tracked.tracked) {
    return refuse(state, text, `${shown} is tracked by git, so whoever can commit to this repository would choose the commands this machine runs`, `it is untracked (\`git rm --cached ${shown}\`, then \`mesh trust\`) or its clients move to ${join(userConfigDir(env), USER_CLIENTS_FILE)}`)
  }
  const trust = await readTrust(userConfigDir(env))
  if (trust.problem) state.warnings.push(trust.problem)
  const record = trust.files[await realpath(join(root, PROJECT_CLIENTS_FILE))]
  if (!record) return refuse(state, text, `${shown} is not trusted on this machine`, 'you read it and run `mesh trust`')
  if (record.sha256 !== sha256(bytes)) return refuse(state, text, `${shown} changed since you trusted it`, 'you read it again and run `mesh trust`')
  apply(state, text, shown)
}

/** This machine's client templates for the project at `root`, and what it refuses. Read afresh at each call. */
export async function loadClients(options: ClientSourceOptions): Promise<ClientsState> {
  const env = options.env ?? process.env
  const state: ClientsState = {clients: {...DEFAULT_CLIENTS}, refused: {}, refusedAll: null, access: {}, refusedAccess: {}, mcp: {}, warnings: []}
  await userLayer(state, env)
  await projectLayer(state, options.root, env)
  return state
}

/** The template of `name`, or the sentence its turn fails with. */
export function clientFor(state: ClientsState, name: string): {template: ClientTemplate} | {refused: string} {
  if (state.refusedAll) return {refused: state.refusedAll}
  if (state.refused[name]) return {refused: state.refused[name]}
  const template = state.clients[name]
  if (template) return {template}
  return {refused: `unknown client ${JSON.stringify(name)}; known: ${Object.keys(state.clients).join(', ')} (add one in ${join(userConfigDir(), USER_CLIENTS_FILE)})`}
}
