/**
 * Reads of the project that need no daemon (issue 21): through the project's
 * running daemon when there is one — its answer is what it serves, e.g. the
 * roster after its migration — else from the files on disk with the same
 * library code, and the command says so (`source: "files"`; a note on stderr
 * on a terminal). The counterpart of project-writes.ts for reads.
 */
import type {ProjectReader} from '../daemon/project-files.js'
import type {DaemonSession} from './daemon-session.js'

export type ReadSource = 'daemon' | 'files'

/** The project's files as the daemon's readers take them; refusals (a linked card…) are shown in the answer, said nowhere else. */
export interface LocalReader extends ProjectReader {
  root: string
}

export interface ProjectRead<T> {
  daemon(session: DaemonSession): Promise<T>
  files(reader: LocalReader): Promise<T>
}

/** The line a command prints on stderr (not under --json) when it read the files. */
export const FILES_NOTE = 'note: no daemon serves this project; read from the files on disk'

/** Runs `read` through the project's running daemon, else on the files; says which. */
export async function readProject<T>(dir: string | undefined, read: ProjectRead<T>): Promise<{source: ReadSource; result: T}> {
  const [{findProjectRoot, meshPath}, {sessionIfRunning}] = await Promise.all([import('../standard/project/project-root.js'), import('./daemon-session.js')])
  const root = await findProjectRoot(dir ?? process.cwd())
  const {session} = await sessionIfRunning(root)
  if (session) return {source: 'daemon', result: await read.daemon(session)}
  const reader: LocalReader = {root, meshPath: (...parts: string[]) => meshPath(root, ...parts), debug: {log: () => undefined}}
  return {source: 'files', result: await read.files(reader)}
}
