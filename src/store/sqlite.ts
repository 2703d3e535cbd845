import {chmodSync, closeSync, mkdirSync, openSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Migration} from './migrations.js'

export type SqliteDatabase = Database.Database

export interface OpenSqliteOptions {
  /** Data dir; the database file is `<dataDir>/mesh.db`. Omit for an in-memory database. */
  dataDir?: string
}

/**
 * The database holds api-key hashes, shared secrets and payment state:
 * owner-only, like the secret files beside it. The file is created 0600
 * before SQLite opens it, because SQLite gives its -wal and -shm files the
 * mode of the database file; one left looser by an older mesh is tightened.
 */
function ownerOnlyFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600))
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(file + suffix, 0o600)
    } catch {
      // Not there yet (-wal, -shm), or not ours to change: SQLite's own open says what is wrong.
    }
  }
}

/**
 * Opens the embedded database: WAL so readers never block the writer,
 * synchronous=NORMAL (durable across process crashes, which is what SIGKILL
 * tests check; an OS crash may lose the last transactions), and a busy
 * timeout so two processes on one file wait instead of failing. In a data
 * dir the file is mode 0600. Servers open it through openStorage (open.ts).
 */
export function openSqlite(options: OpenSqliteOptions = {}): SqliteDatabase {
  let file = ':memory:'
  if (options.dataDir) {
    // Folders it creates are owner-only; an existing folder keeps the mode its owner gave it.
    mkdirSync(options.dataDir, {recursive: true, mode: 0o700})
    file = join(options.dataDir, 'mesh.db')
    ownerOnlyFile(file)
  }
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  return db
}

/** Applies the migrations of each area not applied yet, each in its own transaction. */
export function migrateSqlite(db: SqliteDatabase, migrations: Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS mesh_migrations (
    area TEXT NOT NULL, version INTEGER NOT NULL, applied_at TEXT NOT NULL,
    PRIMARY KEY (area, version))`)
  const applied = db.prepare('SELECT 1 FROM mesh_migrations WHERE area = ? AND version = ?')
  const record = db.prepare('INSERT INTO mesh_migrations (area, version, applied_at) VALUES (?, ?, ?)')
  const ordered = [...migrations].sort((a, b) => a.area.localeCompare(b.area) || a.version - b.version)
  for (const step of ordered) {
    if (applied.get(step.area, step.version)) continue
    db.transaction(() => {
      db.exec(step.sql)
      record.run(step.area, step.version, new Date().toISOString())
    })()
  }
}
