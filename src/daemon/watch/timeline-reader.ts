/**
 * Reads what was appended to `timeline/<YYYY-MM-DD>.jsonl` since it was last
 * read: only whole lines (a line still being written waits for its newline),
 * from the last known size; a file that shrank or was replaced (another inode)
 * is read again from its start. docs/daemon-api.md, Events from files.
 */
import type {Stats} from 'node:fs'
import {lstat} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'
import {listContainedFolder, openContainedFile} from '../../lib/contained-files.js'
import {TIMELINE_READ_MAX_BYTES} from './constants.js'

export interface TimelineRead {
  /** The parsed lines (JSON objects), oldest first. */
  events: Array<Record<string, unknown>>
  /** Lines that were not JSON objects, skipped. */
  skipped: number
}

export interface TimelineReader {
  /** Remembers the current size of every timeline file, so only later appends are reported. */
  seed(timelineDir: string, relativeDir: string): Promise<void>
  /** The new whole lines of the file (absolute path; `relativePath` keys the offset). */
  readAppended(relativePath: string, absolutePath: string, stats: Stats): Promise<TimelineRead>
  forget(relativePath: string): void
}

const NEWLINE = 0x0a

export function createTimelineReader(): TimelineReader {
  const offsets = new Map<string, {offset: number; ino: number}>()

  const parse = (text: string, read: TimelineRead) => {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      try {
        const value: unknown = JSON.parse(line)
        if (value && typeof value === 'object' && !Array.isArray(value)) read.events.push(value as Record<string, unknown>)
        else read.skipped++
      } catch {
        read.skipped++
      }
    }
  }

  return {
    async seed(timelineDir, relativeDir) {
      // Links are not timeline files (issue 18): neither the folder nor a file is followed.
      const names = (await listContainedFolder(dirname(timelineDir), basename(timelineDir)).catch(() => [])).map((entry) => entry.name)
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue
        const stats = await lstat(join(timelineDir, name)).catch(() => null)
        if (stats?.isFile()) offsets.set(`${relativeDir}/${name}`, {offset: stats.size, ino: stats.ino})
      }
    },
    async readAppended(relativePath, absolutePath, stats) {
      const known = offsets.get(relativePath)
      let offset = known && known.ino === stats.ino && known.offset <= stats.size ? known.offset : 0
      const read: TimelineRead = {events: [], skipped: 0}
      const handle = await openContainedFile(dirname(absolutePath), basename(absolutePath))
      if (!handle) return read
      try {
        const size = (await handle.stat()).size
        const buffer = Buffer.alloc(Math.min(TIMELINE_READ_MAX_BYTES, Math.max(0, size - offset)))
        while (offset < size) {
          const {bytesRead} = await handle.read(buffer, 0, Math.min(buffer.length, size - offset), offset)
          if (bytesRead === 0) break
          const lastNewline = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE)
          if (lastNewline === -1) {
            // No newline in a whole chunk: a line too long to hold; skip what was read of it.
            if (bytesRead === TIMELINE_READ_MAX_BYTES) {
              read.skipped++
              offset += bytesRead
              continue
            }
            break
          }
          parse(buffer.toString('utf8', 0, lastNewline), read)
          offset += lastNewline + 1
        }
      } finally {
        await handle.close()
      }
      offsets.set(relativePath, {offset, ino: stats.ino})
      return read
    },
    forget(relativePath) {
      offsets.delete(relativePath)
    },
  }
}
