import {closeSync, existsSync, readdirSync, readFileSync, realpathSync, statSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {setImmediate as yieldToLoop} from 'node:timers/promises'
import {openContainedFileSync} from '../../lib/contained-files.js'
import {invalid, isMeshError} from '../../lib/errors.js'
import {BOOTSTRAP_FILE, MESH_DIR} from '../constants.js'
import {FORMAT_OF_KIND, classifyFile, skipDirectoryReason, skipFileReason} from './classify.js'
import {parseFile} from './parse.js'
import {firstInvalidUtf8, utf8Problem} from './utf8.js'
import type {Project, ProjectFile, SkippedPath} from './types.js'

/** Files of an unknown kind larger than this are listed, not read (they are not the standard's). */
const MAX_OPAQUE_BYTES = 1024 * 1024
/**
 * A file of the standard larger than this is a finding, not read: the largest
 * legitimate ones (a day's timeline, a full queue of 50 × 64 KB) are far below.
 */
export const MAX_STANDARD_FILE_BYTES = 16 * 1024 * 1024
/** Files read between two yields to the event loop, so a daemon hosting the loader stays responsive. */
const READ_BATCH = 512

export interface LoadOptions {
  /** Files per synchronous read batch (default 512). */
  batchSize?: number
}

/**
 * Finds, classifies, reads and parses every file of a mesh project: all of
 * `.mesh/` plus `mesh.json` and `.gitignore` at the root. Paths it does not
 * read (deny-listed secrets, generated state, symlinks) come back in
 * `skipped` with a reason; nothing is dropped silently.
 *
 * Reads are synchronous in batches with a yield between batches: on many
 * small files `readFileSync` is several times faster than `fs.promises`
 * (measured in bench/validate), and the yield keeps a host's event loop alive.
 */
export async function loadProject(rootDir: string, options: LoadOptions = {}): Promise<Project> {
  const root = resolve(rootDir)
  if (!existsSync(root) || !statSync(root).isDirectory()) throw invalid('usage_dir_missing', `No such directory: ${rootDir}`)
  const skipped: SkippedPath[] = []
  const paths: string[] = []
  for (const name of [BOOTSTRAP_FILE, '.gitignore']) if (existsSync(join(root, name))) paths.push(name)
  const hasMeshDir = existsSync(join(root, MESH_DIR))
  if (hasMeshDir) walk(root, MESH_DIR, paths, skipped)

  const batchSize = options.batchSize ?? READ_BATCH
  const files: ProjectFile[] = []
  const reals: RealRoots = {root: realpathSync.native(root), mesh: hasMeshDir ? realpathSync.native(join(root, MESH_DIR)) : ''}
  for (let start = 0; start < paths.length; start += batchSize) {
    if (start > 0) await yieldToLoop()
    for (const path of paths.slice(start, start + batchSize)) files.push(readOne(root, path, reals))
  }
  return {root, files, skipped, hasMeshDir}
}

/** Depth-first walk of `dir` (repo-relative), collecting file paths in a stable order. */
function walk(root: string, dir: string, paths: string[], skipped: SkippedPath[]): void {
  let entries
  try {
    entries = readdirSync(join(root, dir), {withFileTypes: true})
  } catch (error) {
    // Its files cannot be checked: an error finding too (validate), not only a skipped entry.
    skipped.push({path: `${dir}/`, reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, unreadable: true})
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`
    if (entry.isSymbolicLink()) {
      skipped.push({path, reason: 'symbolic link: not followed'})
    } else if (entry.isDirectory()) {
      const reason = skipDirectoryReason(path)
      if (reason) skipped.push({path: `${path}/`, reason})
      else walk(root, path, paths, skipped)
    } else if (entry.isFile()) {
      const reason = skipFileReason(path)
      if (reason) skipped.push({path, reason})
      else paths.push(path)
    } else {
      skipped.push({path, reason: 'not a regular file'})
    }
  }
}

/** The real paths of the repository root and of `.mesh/`, the anchors of every read. */
interface RealRoots {
  root: string
  mesh: string
}

/**
 * Opens a file of the walk without following a link (issue 18): the walk
 * already skips links, and the open refuses one that appeared since. Files
 * of `.mesh/` are anchored at `.mesh/` (which may itself be reached
 * through a link), mesh.json and .gitignore at the root.
 */
function openProjectFile(root: string, path: string, reals: RealRoots) {
  const inMesh = path.startsWith(`${MESH_DIR}/`)
  return inMesh
    ? openContainedFileSync(join(root, MESH_DIR), path.slice(MESH_DIR.length + 1), {realRoot: reals.mesh})
    : openContainedFileSync(root, path, {realRoot: reals.root})
}

function readOne(root: string, path: string, reals: RealRoots): ProjectFile {
  const absolutePath = join(root, path)
  const file: ProjectFile = {path, absolutePath, ...classifyFile(path)}
  const format = FORMAT_OF_KIND[file.kind]
  let fd: number | null = null
  try {
    const opened = openProjectFile(root, path, reals)
    if (opened === null) throw Object.assign(new Error('ENOENT'), {code: 'ENOENT'})
    fd = opened.fd
    const size = opened.stats.size
    if (format === 'opaque' && size > MAX_OPAQUE_BYTES) {
      file.unreadReason = `larger than ${MAX_OPAQUE_BYTES / 1024} KB: not read or scanned`
      return file
    }
    if (format !== 'opaque' && size > MAX_STANDARD_FILE_BYTES) {
      file.unreadReason = `${(size / 1024 / 1024).toFixed(1)} MB, larger than the ${MAX_STANDARD_FILE_BYTES / 1024 / 1024} MB a file of the standard may have: not read`
      file.parseError = {line: 1, column: 1, message: file.unreadReason}
      return file
    }
    const bytes = readFileSync(fd)
    const text = bytes.toString('utf8')
    if (format === 'opaque') {
      if (text.includes('\u0000')) file.unreadReason = 'binary: not scanned'
      else file.text = text
      return file
    }
    file.text = text
    // A replacement character in the decoded text: either a real U+FFFD or bytes that are not UTF-8.
    if (text.includes('\uFFFD')) {
      const offset = firstInvalidUtf8(bytes)
      if (offset !== -1) {
        file.parseError = utf8Problem(bytes, offset)
        return file
      }
    }
  } catch (error) {
    file.unreadReason = isMeshError(error) ? error.message : `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
    file.parseError = {line: 1, column: 1, message: file.unreadReason}
    return file
  } finally {
    if (fd !== null) closeSync(fd)
  }
  parseFile(file, format)
  return file
}
