/**
 * Consistent copies of a SQLite database through SQLite's online backup API
 * (better-sqlite3's `db.backup()`), never a file copy: a copy of `mesh.db`
 * alone misses what is still in `-wal`, and one taken mid-write may be torn.
 * The source is opened read-only, so a serving process keeps writing (WAL
 * lets a reader and the writer work at once). What a copy keeps or drops is
 * the caller's (src/registry/backup.ts); this file only copies and checks.
 */
import {randomBytes} from 'node:crypto'
import {chmod, open, rename, rm} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'
import Database from 'better-sqlite3'
import type {SqliteDatabase} from './sqlite.js'

/** Opens an existing database file read-only (throws when it is missing or not a database). */
export function openSqliteReadOnly(file: string): SqliteDatabase {
  const db = new Database(file, {readonly: true, fileMustExist: true})
  db.pragma('busy_timeout = 5000')
  return db
}

/** `PRAGMA integrity_check`: 'ok', or the first problems SQLite reports (joined). */
export function integrityOf(db: SqliteDatabase): string {
  const rows = db.pragma('integrity_check', {simple: false}) as Array<{integrity_check: string}>
  return rows.map((row) => row.integrity_check).join('; ')
}

/** Rows of each named table; a table the database does not have counts 0 (an area that never ran). */
export function countRows(db: SqliteDatabase, tables: readonly string[]): Record<string, number> {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck()
  const counts: Record<string, number> = {}
  for (const table of tables) {
    // Names come from the caller's fixed list, never from input; checked against the schema first.
    counts[table] = exists.get(table) ? (db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number) : 0
  }
  return counts
}

export interface SqliteCopyOptions {
  /** Runs on the finished copy (read-write) before it is checked and put in place: drop what must not travel. */
  edit?(copy: SqliteDatabase): void
  /** File mode of the result (default 0o600: a copy holds what the database holds). */
  mode?: number
}

/**
 * Copies `source` (an open database) to `target` atomically: into a temp file
 * beside the target (created with the mode first: SQLite keeps an existing
 * file's mode), through the online backup API, then edited, switched to a
 * single self-contained file (journal_mode DELETE, no `-wal` to forget),
 * checked with `PRAGMA integrity_check`, synced and renamed into place.
 * Nothing is left at `target` or beside it when any step fails.
 */
export async function copySqlite(source: SqliteDatabase, target: string, options: SqliteCopyOptions = {}): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const mode = options.mode ?? 0o600
  await (await open(temp, 'wx', mode)).close()
  try {
    await source.backup(temp)
    const copy = new Database(temp)
    try {
      copy.pragma('journal_mode = DELETE')
      if (options.edit) {
        copy.transaction(() => options.edit!(copy))()
        // Deleted rows would linger in free pages; VACUUM rewrites the file without them.
        copy.exec('VACUUM')
      }
      const integrity = integrityOf(copy)
      if (integrity !== 'ok') throw new Error(`the copy failed its integrity check: ${integrity}`)
    } finally {
      copy.close()
    }
    await chmod(temp, mode)
    const handle = await open(temp, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, target)
  } catch (error) {
    await rm(temp, {force: true})
    await rm(`${temp}-journal`, {force: true})
    throw error
  }
}

/**
 * Folds a database's `-wal` into the file and leaves it a single file
 * (journal_mode DELETE), so it can be moved without what it last wrote;
 * a stray `-wal` beside a replaced file would be replayed into it.
 */
export function foldWal(file: string): void {
  const db = new Database(file)
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.pragma('journal_mode = DELETE')
  } finally {
    db.close()
  }
}
