/**
 * What `mesh trust` does (issue 18, as direnv's `allow`): shows what the
 * project's `.mesh/agents/clients.yaml` would run — each client's commands,
 * and the access levels it sets per member (issue 19) —
 * and records the SHA-256 of those exact bytes in the user's trust records,
 * or forgets them (`--revoke`). A file git tracks, a link, or a file that is
 * not a usable clients file is never trusted. docs/cli.md, mesh trust.
 */
import {realpath} from 'node:fs/promises'
import {join} from 'node:path'
import {conflict, invalid, MeshError, notFound} from '../../../lib/errors.js'
import {userConfigDir} from '../../../lib/user-config.js'
import {isTrackedByGit} from '../../git/tracked.js'
import {ProjectFileError, readProjectFileNoFollow} from '../project-file.js'
import {ClientsFileError, parseClientsFile} from './parse.js'
import {MAX_CLIENTS_FILE_BYTES, PROJECT_CLIENTS_FILE} from './sources.js'
import {DEFAULT_CLIENTS, type AccessLevel} from './templates.js'
import {readTrust, recordTrust, revokeTrust, sha256} from './trust.js'

export interface TrustedClient {
  name: string
  /** argv of a session's first turn (or of every turn). */
  command: string[]
  /** argv of later turns, when the client resumes sessions. */
  resume?: string[]
}

export interface ProjectClientsView {
  /** The file, relative to the project root. */
  file: string
  /** Its absolute real path: the key of the trust record. */
  path: string
  sha256: string
  /** `trusted`: these bytes are; `changed`: other bytes were; `untrusted`: never. */
  trust: 'trusted' | 'changed' | 'untrusted'
  clients: TrustedClient[]
  /** The access level it gives each member it names (issue 19): what a member's client may do on this machine. */
  access: Record<string, AccessLevel>
  /** The members whose turns it gives the project's MCP server (issue 24, `mcp:`): one more process their clients start. */
  mcp: string[]
}

export interface TrustOptions {
  /** The project root (the folder holding `.mesh/`). */
  root: string
  env?: NodeJS.ProcessEnv
  now?: Date
}

/** Reads, checks and describes the project's clients file; throws a MeshError when it cannot be trusted at all. */
export async function inspectProjectClients(options: TrustOptions): Promise<ProjectClientsView> {
  const env = options.env ?? process.env
  let bytes: Buffer
  try {
    bytes = await readProjectFileNoFollow(options.root, PROJECT_CLIENTS_FILE, MAX_CLIENTS_FILE_BYTES)
  } catch (error) {
    if (!(error instanceof ProjectFileError)) throw error
    if (error.reason === 'missing') throw notFound('clients_file_missing', `${PROJECT_CLIENTS_FILE} does not exist: there is nothing to trust (your own clients go in ${join(userConfigDir(env), 'clients.yaml')}, which needs no trust)`)
    throw invalid('clients_file_unsafe', `${error.message}; it cannot be trusted`)
  }
  const tracked = await isTrackedByGit(options.root, PROJECT_CLIENTS_FILE, env)
  if ('unknown' in tracked) throw new MeshError('unavailable', 'clients_file_git_unknown', `git could not say whether ${PROJECT_CLIENTS_FILE} is tracked (${tracked.unknown}); it cannot be trusted until it can`)
  if (tracked.tracked) {
    throw conflict('clients_file_tracked', `${PROJECT_CLIENTS_FILE} is tracked by git, so whoever can commit to this repository would choose the commands this machine runs; it cannot be trusted. Untrack it (\`git rm --cached ${PROJECT_CLIENTS_FILE}\`) or move its clients to ${join(userConfigDir(env), 'clients.yaml')}`)
  }
  let parsed
  try {
    parsed = parseClientsFile(bytes.toString('utf8'), DEFAULT_CLIENTS, PROJECT_CLIENTS_FILE)
  } catch (error) {
    if (error instanceof ClientsFileError) throw invalid('clients_file_invalid', `${error.message}; fix it before trusting it`)
    throw error
  }
  const unusable = [...Object.values(parsed.unusable), ...Object.values(parsed.accessProblems), ...parsed.mcpProblems]
  if (unusable.length > 0) throw invalid('clients_file_invalid', `${PROJECT_CLIENTS_FILE}: ${unusable.join('; ')}; fix it before trusting it`)
  const path = await realpath(join(options.root, PROJECT_CLIENTS_FILE))
  const hash = sha256(bytes)
  const recorded = (await readTrust(userConfigDir(env))).files[path]
  return {
    file: PROJECT_CLIENTS_FILE,
    path,
    sha256: hash,
    trust: !recorded ? 'untrusted' : recorded.sha256 === hash ? 'trusted' : 'changed',
    clients: parsed.names.map((name) => ({name, command: parsed.templates[name].command, ...(parsed.templates[name].resume ? {resume: parsed.templates[name].resume} : {})})),
    access: parsed.access,
    mcp: Object.keys(parsed.mcp).filter((member) => parsed.mcp[member]),
  }
}

/** Trusts the exact bytes the file holds now; answers what they run. */
export async function trustProjectClients(options: TrustOptions): Promise<ProjectClientsView> {
  const env = options.env ?? process.env
  const view = await inspectProjectClients(options)
  const configDir = userConfigDir(env)
  await recordTrust(configDir, view.path, view.sha256, options.now)
  // A records file in a folder others can change is not believed by the daemon either: say so now.
  const after = await readTrust(configDir)
  if (after.problem) throw invalid('trust_records_exposed', after.problem)
  return {...view, trust: 'trusted'}
}

/** Forgets the project's clients file (present or not); false when it was not trusted. */
export async function revokeProjectClients(options: TrustOptions): Promise<{file: string; path: string; revoked: boolean}> {
  const env = options.env ?? process.env
  const path = join(await realpath(options.root), PROJECT_CLIENTS_FILE)
  return {file: PROJECT_CLIENTS_FILE, path, revoked: await revokeTrust(userConfigDir(env), path)}
}
