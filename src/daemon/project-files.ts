/**
 * How the daemon reads the project's files (issue 18, "no symlink on any
 * daemon path"): every read of `.mesh/` goes through src/lib/contained-files.ts,
 * which refuses a file that is not a regular file in real folders inside
 * `.mesh/` — a committed link would otherwise hand a secret (the portal
 * token, member tokens, the daemon's environment) to any local process or
 * into an agent's prompt. A refusal is said once per file and reason in the
 * debug stream (tag `files.refused`), naming the file and never its target.
 * docs/daemon.md, Files the daemon reads.
 */
import type {Dirent} from 'node:fs'
import {lstat} from 'node:fs/promises'
import {isPathRefused, listContainedFolder, readContainedFile, readContainedText} from '../lib/contained-files.js'
import {conflict} from '../lib/errors.js'
import {MESH_DIR} from '../protocol/daemon.js'
import {meshPath} from '../standard/project/project-root.js'
import type {DaemonContext} from './context.js'
import type {DebugInput} from './debug-stream.js'

export const REFUSED_TAG = 'files.refused'

type Reporter = {debug: {log(input: DebugInput): unknown}}
/**
 * What reading project files takes: the daemon's context, or a command's reader of the files on disk when no
 * daemon runs (src/cli/project-reads.ts), whose refusals are said nowhere.
 */
export type ProjectReader = Pick<DaemonContext, 'meshPath'> & Reporter
type Reader = ProjectReader

const said = new WeakMap<object, Set<string>>()

/**
 * Says a refusal in the debug stream, once per file and reason for the life
 * of the stream (a page polling GET /team must not fill it). Other errors
 * are not refusals: nothing is said.
 */
export function reportRefused(context: Reporter, error: unknown): void {
  if (!isPathRefused(error)) return
  const {path, reason} = error.details as {path: string; reason: string}
  reportRefusedPath(context, path, reason)
}

/** Says that `path` (as shown: `.mesh/team/x.md`) was refused for `reason`; once per file and reason. */
export function reportRefusedPath(context: Reporter, path: string, reason: string): void {
  const seen = said.get(context.debug) ?? new Set<string>()
  said.set(context.debug, seen)
  const key = `${path}\0${reason}`
  if (seen.has(key)) return
  seen.add(key)
  context.debug.log({lvl: 'warn', tag: REFUSED_TAG, msg: `refused ${path}: it is ${reason}; the daemon reads and writes no project file through a link`, data: {path, reason}})
}

/** Reports a refusal, then throws the error again (whatever it is). */
const reported = (context: Reporter) => (error: unknown): never => {
  reportRefused(context, error)
  throw error
}

/** `.mesh/<relativePath>` as text, null when missing; refused (409 `path_refused`) when not a regular file inside `.mesh/`. */
export const readProjectText = (context: Reader, relativePath: string): Promise<string | null> =>
  readContainedText(context.meshPath(), relativePath).catch(reported(context))

/** `.mesh/<relativePath>` as bytes; as readProjectText. */
export const readProjectFile = (context: Reader, relativePath: string): Promise<Buffer | null> =>
  readContainedFile(context.meshPath(), relativePath).catch(reported(context))

/** The entries of the real folder `.mesh/<relativePath>`, [] when missing; refused when it or a folder above is a link. */
export const listProjectFolder = (context: Reader, relativePath: string): Promise<Dirent[]> =>
  listContainedFolder(context.meshPath(), relativePath).catch(reported(context))

/** The refusal reason of an entry listed in a folder, or null for a regular file (a link is never followed to find out more). */
export const entryRefusal = (entry: Dirent): string | null => (entry.isFile() ? null : entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file')

/**
 * The daemon serves only a real `.mesh/` folder: a `.mesh` that is a link
 * (committed, or made by hand) would have it read, serve and write wherever
 * the link points. Refused at start with a sentence (409 `mesh_dir_is_link`);
 * the commands that only read the project (validate, task) still follow it.
 */
export async function assertRealMeshFolder(root: string): Promise<void> {
  const stats = await lstat(meshPath(root)).catch(() => null)
  if (stats?.isSymbolicLink()) {
    throw conflict('mesh_dir_is_link', `${MESH_DIR} in ${root} is a symbolic link; the daemon serves only a real ${MESH_DIR}/ folder (it reads and writes nothing through a link): replace the link with the folder itself`)
  }
}
