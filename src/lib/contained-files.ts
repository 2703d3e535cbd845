/**
 * Reads and writes of a project's own files that never go through a
 * symbolic link (issue 18: "no symlink on any daemon path"). A committed
 * `.mesh/team/helper.md -> ../credentials/portal-token` must not hand the
 * token to whoever reads the card, and a linked `.mesh/snapshots` must not
 * carry the daemon's writes out of the project.
 *
 * Every path is `root` + a relative path, and every component below `root`
 * must be a real folder or, at the end, a regular file: a link anywhere
 * below `root` is refused (409 `path_refused`), never followed. `root`
 * itself may be reached through links (its real path is the anchor).
 *
 * Hand-written because Node has no `openat`: the only portable way to keep a
 * path from escaping is to open the last component with O_NOFOLLOW, check
 * the handle (fstat: a regular file) and then check that the file opened is
 * the one the path names inside the real root — through
 * `/proc/self/fd/<fd>` where Linux offers it (exact, race-free), else by
 * walking the folders with lstat and comparing device and inode. O_NONBLOCK
 * keeps a FIFO from hanging the open.
 */
import {closeSync, constants, fstatSync, readFileSync, openSync, readlinkSync, realpathSync, lstatSync, type Dirent, type Stats} from 'node:fs'
import {lstat, mkdir, open, readdir, readlink, realpath, type FileHandle} from 'node:fs/promises'
import {basename, isAbsolute, join, sep} from 'node:path'
import {writeFileAtomic, type AtomicWriteOptions} from './atomic-write.js'
import {createFileExclusive} from './exclusive-create.js'
import {invalid, isMeshError, MeshError} from './errors.js'

/** The code of every refusal below: the file is there, but mesh will not use it. */
export const PATH_REFUSED = 'path_refused'

// Windows has neither flag; the lstat walk below still refuses links there.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const NONBLOCK = constants.O_NONBLOCK ?? 0
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK
const TRUNCATE_FLAGS = constants.O_WRONLY | constants.O_TRUNC | constants.O_CREAT | NOFOLLOW | NONBLOCK

/** Why a path is refused, as the messages say it. */
export type RefusedReason = 'a symbolic link' | 'not a regular file' | 'not a folder' | 'outside its folder'

/** `<root's name>/<relative>`, e.g. `.mesh/team/helper.md`: what messages show (never a link's target). */
const shownPath = (root: string, parts: string[]) => [basename(root), ...parts].join('/')

function refused(root: string, parts: string[], why: RefusedReason): MeshError {
  const shown = shownPath(root, parts)
  return new MeshError('conflict', PATH_REFUSED, `${shown} is ${why}: mesh reads and writes project files only as regular files in real folders, never through a link`, {
    details: {path: shown, reason: why},
  })
}

/** Whether `error` is a refusal of this module. */
export const isPathRefused = (error: unknown): error is MeshError => isMeshError(error) && error.code === PATH_REFUSED

/** The components of a relative path; absolute paths, `..` and NUL are refused (400 `invalid_path`). */
function partsOf(relativePath: string): string[] {
  if (typeof relativePath !== 'string' || relativePath.includes('\0') || isAbsolute(relativePath)) throw invalid('invalid_path', 'A project path is relative and has no NUL byte')
  const parts = relativePath.split(sep === '\\' ? /[\\/]+/ : /\/+/).filter((part) => part !== '' && part !== '.')
  if (parts.includes('..')) throw invalid('invalid_path', `${relativePath} climbs out of its folder`)
  return parts
}

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')
const isLinkRefusal = (error: unknown) => ['ELOOP', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')

/**
 * Checks the folders `parts` under `root` one by one with lstat: 'missing'
 * when one is absent (or a file stands where a folder should), 'ok' when all
 * are real folders; a link among them is refused.
 */
async function walkFolders(root: string, parts: string[]): Promise<'ok' | 'missing'> {
  let path = root
  for (let index = 0; index < parts.length; index++) {
    path = join(path, parts[index])
    const stats = await lstat(path).catch((error) => (isMissing(error) ? null : Promise.reject(error)))
    if (!stats || (!stats.isDirectory() && !stats.isSymbolicLink())) return 'missing'
    if (stats.isSymbolicLink()) throw refused(root, parts.slice(0, index + 1), 'a symbolic link')
  }
  return 'ok'
}

function walkFoldersSync(root: string, parts: string[]): 'ok' | 'missing' {
  let path = root
  for (let index = 0; index < parts.length; index++) {
    path = join(path, parts[index])
    let stats: Stats
    try {
      stats = lstatSync(path)
    } catch (error) {
      if (isMissing(error)) return 'missing'
      throw error
    }
    if (stats.isSymbolicLink()) throw refused(root, parts.slice(0, index + 1), 'a symbolic link')
    if (!stats.isDirectory()) return 'missing'
  }
  return 'ok'
}

/** What /proc says the descriptor is, or null where there is no /proc. */
const procPath = (fd: number) => readlink(`/proc/self/fd/${fd}`).catch(() => null)
const procPathSync = (fd: number) => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`)
  } catch {
    return null
  }
}

/** Throws unless the descriptor is the file `root/parts` inside the real root. */
async function assertOpenedInside(handle: FileHandle, stats: Stats, root: string, parts: string[], realRoot?: string): Promise<void> {
  const expected = join(realRoot ?? (await realpath(root)), ...parts)
  const actual = await procPath(handle.fd)
  if (actual !== null) {
    if (actual === expected) return
    // The walk names the linked folder when it is still there; one gone again (a race) is "outside".
    await walkFolders(root, parts.slice(0, -1))
    throw refused(root, parts, 'outside its folder')
  }
  // No /proc (macOS, BSD): the folders are still real, and the path still names the file opened.
  if ((await walkFolders(root, parts.slice(0, -1))) === 'missing') throw refused(root, parts, 'outside its folder')
  const now = await lstat(join(root, ...parts)).catch(() => null)
  if (!now || now.ino !== stats.ino || now.dev !== stats.dev) throw refused(root, parts, 'outside its folder')
}

async function openInside(root: string, parts: string[], flags: number, mode?: number): Promise<FileHandle | null> {
  if (parts.length === 0) throw refused(root, parts, 'not a regular file')
  try {
    return await open(join(root, ...parts), flags, mode)
  } catch (error) {
    if (isMissing(error)) {
      // A linked folder on the way to a file that is not there is still a link: say so rather than "missing".
      await walkFolders(root, parts.slice(0, -1))
      return null
    }
    if (isLinkRefusal(error)) throw refused(root, parts, 'a symbolic link')
    if ((error as NodeJS.ErrnoException).code === 'EISDIR' || (error as NodeJS.ErrnoException).code === 'ENXIO') throw refused(root, parts, 'not a regular file')
    throw error
  }
}

export interface ReadContainedOptions {
  /** The real path of `root`, when the caller already has it (a scan of many files). */
  realRoot?: string
}

/**
 * `root/relativePath` opened for reading, or null when it does not exist;
 * refused (409 `path_refused`) when it, or a folder on its way, is a link,
 * or it is not a regular file. The caller closes it.
 */
export async function openContainedFile(root: string, relativePath: string, options: ReadContainedOptions = {}): Promise<FileHandle | null> {
  const parts = partsOf(relativePath)
  const handle = await openInside(root, parts, READ_FLAGS)
  if (!handle) return null
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw refused(root, parts, 'not a regular file')
    await assertOpenedInside(handle, stats, root, parts, options.realRoot)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/**
 * The bytes of `root/relativePath` (at most `maxBytes` of them when given),
 * or null when it does not exist; refused as openContainedFile.
 */
export async function readContainedFile(root: string, relativePath: string, options: ReadContainedOptions & {maxBytes?: number} = {}): Promise<Buffer | null> {
  const handle = await openContainedFile(root, relativePath, options)
  if (!handle) return null
  try {
    if (options.maxBytes === undefined) return await handle.readFile()
    const buffer = Buffer.alloc(options.maxBytes)
    const {bytesRead} = await handle.read(buffer, 0, options.maxBytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** readContainedFile as UTF-8 text. */
export async function readContainedText(root: string, relativePath: string, options: ReadContainedOptions = {}): Promise<string | null> {
  const bytes = await readContainedFile(root, relativePath, options)
  return bytes === null ? null : bytes.toString('utf8')
}

/**
 * openContainedFile, synchronously: the descriptor and its stats, or null
 * when the file does not exist. The caller closes the descriptor.
 */
export function openContainedFileSync(root: string, relativePath: string, options: ReadContainedOptions = {}): {fd: number; stats: Stats} | null {
  const parts = partsOf(relativePath)
  if (parts.length === 0) throw refused(root, parts, 'not a regular file')
  let fd: number
  try {
    fd = openSync(join(root, ...parts), READ_FLAGS)
  } catch (error) {
    if (isMissing(error)) {
      walkFoldersSync(root, parts.slice(0, -1))
      return null
    }
    if (isLinkRefusal(error)) throw refused(root, parts, 'a symbolic link')
    if ((error as NodeJS.ErrnoException).code === 'EISDIR' || (error as NodeJS.ErrnoException).code === 'ENXIO') throw refused(root, parts, 'not a regular file')
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw refused(root, parts, 'not a regular file')
    const expected = join(options.realRoot ?? realpathSync.native(root), ...parts)
    const actual = procPathSync(fd)
    if (actual !== null) {
      if (actual !== expected) {
        walkFoldersSync(root, parts.slice(0, -1))
        throw refused(root, parts, 'outside its folder')
      }
    } else {
      if (walkFoldersSync(root, parts.slice(0, -1)) === 'missing') throw refused(root, parts, 'outside its folder')
      const now = lstatSync(join(root, ...parts), {throwIfNoEntry: false})
      if (!now || now.ino !== stats.ino || now.dev !== stats.dev) throw refused(root, parts, 'outside its folder')
    }
    return {fd, stats}
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

/**
 * readContainedFile, synchronously: for the loaders that read thousands of
 * small files in batches (readFileSync is several times faster there).
 */
export function readContainedFileSync(root: string, relativePath: string, options: ReadContainedOptions = {}): Buffer | null {
  const opened = openContainedFileSync(root, relativePath, options)
  if (!opened) return null
  try {
    return readFileSync(opened.fd)
  } finally {
    closeSync(opened.fd)
  }
}

/** Throws unless the real path of the folder `root/parts` is where it should be inside the real root. */
async function assertFolderInside(root: string, parts: string[]): Promise<void> {
  const [real, realRoot] = await Promise.all([realpath(join(root, ...parts)), realpath(root)])
  if (real !== join(realRoot, ...parts)) {
    await walkFolders(root, parts)
    throw refused(root, parts, 'outside its folder')
  }
}

/**
 * The entries of the real folder `root/relativePath` ('' for root itself),
 * [] when it does not exist; refused when it, or a folder above it, is a link.
 * Entries are as readdir gives them: a link inside is a link (isFile() false).
 */
export async function listContainedFolder(root: string, relativePath = ''): Promise<Dirent[]> {
  const parts = relativePath === '' ? [] : partsOf(relativePath)
  if ((await walkFolders(root, parts)) === 'missing') return []
  const entries = await readdir(join(root, ...parts), {withFileTypes: true}).catch((error) => (isMissing(error) ? [] : Promise.reject(error)))
  await assertFolderInside(root, parts)
  return entries
}

/** Whether `root/relativePath` exists as anything (a link counts, and is not followed); folders on the way must be real. */
export async function containedEntryExists(root: string, relativePath: string): Promise<boolean> {
  const parts = partsOf(relativePath)
  if ((await walkFolders(root, parts.slice(0, -1))) === 'missing') return false
  return (await lstat(join(root, ...parts)).catch(() => null)) !== null
}

/** Whether `root/relativePath` is a regular file in real folders (a cheap check for listings; read with readContainedFile). */
export async function isContainedRegularFile(root: string, relativePath: string): Promise<boolean> {
  const parts = partsOf(relativePath)
  if (parts.length === 0) return false
  const folders = await walkFolders(root, parts.slice(0, -1)).catch(() => 'missing' as const)
  if (folders === 'missing') return false
  return (await lstat(join(root, ...parts)).catch(() => null))?.isFile() ?? false
}

export interface EnsureFolderOptions {
  /** The mode of each folder created (e.g. 0o700 for credentials/). */
  folderMode?: number
}

/**
 * Makes the folder `root/relativePath` and the missing ones above it, one by
 * one; a link or a file on the way is refused, so nothing is ever created
 * outside `root`. Returns its absolute path.
 */
export async function ensureContainedFolder(root: string, relativePath: string, options: EnsureFolderOptions = {}): Promise<string> {
  const parts = relativePath === '' ? [] : partsOf(relativePath)
  let path = root
  for (let index = 0; index < parts.length; index++) {
    path = join(path, parts[index])
    let stats = await lstat(path).catch((error) => (isMissing(error) ? null : Promise.reject(error)))
    if (!stats) {
      await mkdir(path, {mode: options.folderMode}).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)))
      stats = await lstat(path)
    }
    if (stats.isSymbolicLink()) throw refused(root, parts.slice(0, index + 1), 'a symbolic link')
    if (!stats.isDirectory()) throw refused(root, parts.slice(0, index + 1), 'not a folder')
  }
  await assertFolderInside(root, parts)
  return path
}

/**
 * Appends to the regular file `root/relativePath`, creating it (and its
 * folders) when missing. A link at the end or on the way is refused, so an
 * append never lands outside `root`.
 */
export async function appendContainedFile(root: string, relativePath: string, data: string | Uint8Array, options: {mode?: number} = {}): Promise<void> {
  const handle = await openForWriting(root, relativePath, APPEND_FLAGS, options.mode)
  try {
    await handle.appendFile(data)
  } finally {
    await handle.close()
  }
}

/**
 * Opens `root/relativePath` for writing from its start (created, or emptied),
 * its folders made real ones first; a link is refused. For a file handed to
 * another process (a detached daemon's log). The caller closes it.
 */
export const openContainedForWriting = (root: string, relativePath: string, options: {mode?: number} = {}): Promise<FileHandle> =>
  openForWriting(root, relativePath, TRUNCATE_FLAGS, options.mode)

async function openForWriting(root: string, relativePath: string, flags: number, mode = 0o644): Promise<FileHandle> {
  const parts = partsOf(relativePath)
  await ensureContainedFolder(root, parts.slice(0, -1).join('/'))
  const handle = await openInside(root, parts, flags, mode)
  if (!handle) throw refused(root, parts, 'outside its folder')
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw refused(root, parts, 'not a regular file')
    await assertOpenedInside(handle, stats, root, parts)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/**
 * Writes `root/relativePath` atomically (temp + rename) after making its
 * folders real ones inside `root`. A link standing at the file's own name is
 * replaced by the rename, never written through.
 */
export async function writeContainedFile(root: string, relativePath: string, data: string | Uint8Array, options: AtomicWriteOptions & EnsureFolderOptions = {}): Promise<string> {
  const parts = partsOf(relativePath)
  if (parts.length === 0) throw refused(root, parts, 'not a regular file')
  await ensureContainedFolder(root, parts.slice(0, -1).join('/'), options)
  const path = join(root, ...parts)
  await writeFileAtomic(path, data, {mode: options.mode})
  return path
}

/** createFileExclusive under `root`, its folders made real ones first (a link at the name counts as existing). */
export async function createContainedFileExclusive(root: string, relativePath: string, data: string | Uint8Array, options: AtomicWriteOptions & EnsureFolderOptions = {}): Promise<boolean> {
  const parts = partsOf(relativePath)
  if (parts.length === 0) throw refused(root, parts, 'not a regular file')
  await ensureContainedFolder(root, parts.slice(0, -1).join('/'), options)
  return createFileExclusive(join(root, ...parts), data, {mode: options.mode})
}
