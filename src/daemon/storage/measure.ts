/**
 * Sizes of folders under `.mesh/` for the storage report: every regular file
 * counted once by its apparent size (`st_size`), symlinks never followed nor
 * counted, and a file or folder that vanishes mid-walk (the debug stream's
 * rewrite, a prune) simply left out. docs/daemon-api.md, Storage.
 */
import type {Dirent, Stats} from 'node:fs'
import {lstat, readdir} from 'node:fs/promises'
import {join} from 'node:path'

export interface Measured {
  /** The path exists (as a folder, a file or a link: links are reported, never followed). */
  exists: boolean
  bytes: number
  files: number
}

export const EMPTY: Measured = {exists: false, bytes: 0, files: 0}

/** Gone or unreadable mid-walk: counted as absent, never an error of the report. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP'])

async function quietly<T>(work: Promise<T>, fallback: T): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (GONE.has((error as NodeJS.ErrnoException).code ?? '')) return fallback
    throw error
  }
}

async function walk(dir: string, total: {bytes: number; files: number}): Promise<void> {
  const entries = await quietly<Dirent[]>(readdir(dir, {withFileTypes: true}), [])
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await walk(path, total)
    else if (entry.isFile()) {
      // lstat, not stat: a file replaced by a link between readdir and here is still not followed.
      const stats = await quietly<Stats | null>(lstat(path), null)
      if (stats?.isFile()) {
        total.bytes += stats.size
        total.files += 1
      }
    }
  }
}

/** The size of a folder (recursively) or of one file; a link at `path` itself counts as present but empty. */
export async function measure(path: string): Promise<Measured> {
  const stats = await quietly<Stats | null>(lstat(path), null)
  if (!stats) return EMPTY
  if (stats.isFile()) return {exists: true, bytes: stats.size, files: 1}
  if (!stats.isDirectory()) return {exists: true, bytes: 0, files: 0}
  const total = {bytes: 0, files: 0}
  await walk(path, total)
  return {exists: true, ...total}
}

/** The real sub-folders of `dir` (links and files left out); none when `dir` is missing. */
export async function subfolders(dir: string): Promise<string[]> {
  const entries = await quietly<Dirent[]>(readdir(dir, {withFileTypes: true}), [])
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
}

/** Sums several measures: present when any is. */
export const sum = (parts: Measured[]): Measured =>
  parts.reduce((acc, part) => ({exists: acc.exists || part.exists, bytes: acc.bytes + part.bytes, files: acc.files + part.files}), EMPTY)
