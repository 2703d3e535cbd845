import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import type {Migration} from './migrations.js'

export type SqliteDatabase = Database.Database

export interface OpenSqliteOptions {
  /** Data dir; the database file is `<dataDir>/mesh.db`. Omit for an in-memory database. */
  dataDir?: string
}

/**
 * Opens the embedded database: WAL so readers never block the writer,
 * synchronous=NORMAL (durable across process crashes, which is what SIGKILL
 * tests check; an OS crash may lose the last transactions), and a busy
 * timeout so two processes on one file wait instead of failing.
 */
export function openSqlite(options: OpenSqliteOptions = {}): SqliteDatabase {
  let file = ':memory:'
  if (options.dataDir) {
    mkdirSync(options.dataDir, {recursive: true, mode: 0o700})
    file = join(options.dataDir, 'mesh.db')
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
