/**
 * `mesh registry backup` and `mesh registry restore` for a SQLite data dir
 * (docs/operating.md, Backups). A backup is one SQLite file: the online
 * backup of `<data>/mesh.db`, taken while the server writes, without the
 * deployment's shared secrets (the JWT signing secret and the admin key, in
 * `registry_secrets` and mirrored to two 0600 files) unless asked for. A
 * restore goes only into a data dir no live process serves (its pid file,
 * src/store/data-dir-pid.ts), after the file passed an integrity check.
 */
import {existsSync} from 'node:fs'
import {rename, rm, stat} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {MeshError} from '../lib/errors.js'
import {dataDirHolder} from '../store/data-dir-pid.js'
import {copySqlite, countRows, foldWal, integrityOf, openSqliteReadOnly} from '../store/sqlite-backup.js'
import type {SqliteDatabase} from '../store/sqlite.js'
import {ADMIN_KEY_FILE, ADMIN_KEY_NAME, JWT_SECRET_FILE, JWT_SECRET_NAME} from './constants.js'

/** The database file of a data dir (src/store/sqlite.ts). */
export const DATABASE_FILE = 'mesh.db'
/** Where a restore moves the database it replaces. */
export const REPLACED_DATABASE_FILE = 'mesh.db.before-restore'
const SECRETS_TABLE = 'registry_secrets'
/** The shared secrets and the data dir file each is mirrored to (shared-secrets.ts). */
const SECRET_FILES: ReadonlyArray<{name: string; file: string}> = [
  {name: JWT_SECRET_NAME, file: JWT_SECRET_FILE},
  {name: ADMIN_KEY_NAME, file: ADMIN_KEY_FILE},
]
/**
 * Liveness rows of the nodes that served the database: a restored copy
 * starts with none (the nodes that start on it write their own), instead of
 * showing members and agents online until the sweeps drop them.
 */
const NODE_TABLES = ['cluster_presence', 'cluster_nodes', 'messaging_presence', 'messaging_nodes']

/** What a backup file holds (`mesh registry backup` prints it; `--json` as is). */
export interface BackupSummary {
  file: string
  bytes: number
  agents: number
  messages: number
  clusters: number
  /** The JWT secret and the admin key are in the file. */
  secrets: boolean
}

function summaryOf(db: SqliteDatabase, file: string, bytes: number): BackupSummary {
  const counts = countRows(db, ['registry_agents', 'messaging_messages', 'clusters', SECRETS_TABLE])
  return {file, bytes, agents: counts.registry_agents, messages: counts.messaging_messages, clusters: counts.clusters, secrets: counts[SECRETS_TABLE] > 0}
}

const notSqlite = (dataDir: string) =>
  new MeshError('not_found', 'no_database', `No ${DATABASE_FILE} in ${dataDir}: backup and restore work on a SQLite data dir (see docs/operating.md for PostgreSQL)`)

/** Copies the data dir's database to `file` (0600, atomic) while it may be serving; secrets only with `withSecrets`. */
export async function backupRegistry(options: {dataDir: string; file: string; withSecrets: boolean}): Promise<BackupSummary> {
  const source = join(options.dataDir, DATABASE_FILE)
  if (!existsSync(source)) throw notSqlite(options.dataDir)
  const db = openSqliteReadOnly(source)
  try {
    await copySqlite(db, options.file, {
      edit: options.withSecrets ? undefined : (copy) => dropTableRows(copy, [SECRETS_TABLE]),
    })
  } finally {
    db.close()
  }
  return describeBackup(options.file)
}

/** Opens a backup file read-only, checks it, and says what it holds. */
export async function describeBackup(file: string): Promise<BackupSummary> {
  const db = openBackup(file)
  try {
    return summaryOf(db, file, (await stat(file)).size)
  } finally {
    db.close()
  }
}

function openBackup(file: string): SqliteDatabase {
  let db: SqliteDatabase
  try {
    db = openSqliteReadOnly(file)
  } catch (error) {
    throw new MeshError('invalid', 'backup_unreadable', `Cannot open ${file} as a database: ${(error as Error).message}`)
  }
  try {
    const integrity = integrityOf(db)
    if (integrity !== 'ok') throw new MeshError('invalid', 'backup_corrupt', `${file} failed its integrity check: ${integrity}`)
    if (countRows(db, ['mesh_migrations']).mesh_migrations === 0) throw new MeshError('invalid', 'not_a_mesh_backup', `${file} is a SQLite database but not a mesh data dir's`)
  } catch (error) {
    db.close()
    if (error instanceof MeshError) throw error
    throw new MeshError('invalid', 'backup_unreadable', `Cannot read ${file} as a database: ${(error as Error).message}`)
  }
  return db
}

function dropTableRows(db: SqliteDatabase, tables: readonly string[]) {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck()
  // Names from this file's fixed lists.
  for (const table of tables) if (exists.get(table)) db.exec(`DELETE FROM "${table}"`)
}

/** What a restore did. */
export interface RestoreSummary extends BackupSummary {
  data: string
  /** Where the database it replaced went, or null when the data dir had none. */
  replaced: string | null
  /** The secret files were written from the backup. */
  secrets_restored: boolean
}

/**
 * Puts a backup in place as the data dir's database: refuses a data dir a
 * live process serves, and a file that fails its integrity check; with
 * `withSecrets`, writes the secret files from the backup (which must hold
 * them), else the secrets are left out of the restored database, so the
 * data dir's own secret files (or new ones) seed it at the next start.
 */
export async function restoreRegistry(options: {dataDir: string; file: string; withSecrets: boolean}): Promise<RestoreSummary> {
  const {dataDir} = options
  const holder = dataDirHolder(dataDir)
  if (holder !== null) {
    throw new MeshError('conflict', 'data_dir_in_use', `${dataDir} is served by process ${holder}: stop the server before restoring into its data dir`)
  }
  const backup = openBackup(options.file)
  let summary: BackupSummary
  let secrets: Array<{file: string; value: string}> = []
  const target = join(dataDir, DATABASE_FILE)
  try {
    summary = summaryOf(backup, options.file, (await stat(options.file)).size)
    if (options.withSecrets) {
      if (!summary.secrets) throw new MeshError('invalid', 'backup_without_secrets', `${options.file} holds no secrets (it was taken without --with-secrets); restore without --with-secrets`)
      const read = backup.prepare(`SELECT value FROM ${SECRETS_TABLE} WHERE name = ?`).pluck()
      secrets = SECRET_FILES.flatMap(({name, file}) => {
        const value = read.get(name) as string | undefined
        return value === undefined ? [] : [{file, value}]
      })
    }
    // The copy is made beside the database, checked, then swapped in below.
    await copySqlite(backup, join(dataDir, `.${DATABASE_FILE}.restore`), {
      edit: (copy) => dropTableRows(copy, options.withSecrets ? NODE_TABLES : [...NODE_TABLES, SECRETS_TABLE]),
    })
  } finally {
    backup.close()
  }
  const replaced = await setAside(dataDir, target)
  await rename(join(dataDir, `.${DATABASE_FILE}.restore`), target)
  for (const {file, value} of secrets) await writeFileAtomic(join(dataDir, file), value + '\n', {mode: 0o600})
  return {...summary, data: dataDir, replaced, secrets_restored: secrets.length > 0}
}

/**
 * Moves the current database aside, with what its `-wal` still held folded
 * in first: a `-wal` left beside the restored file would be replayed into it.
 */
async function setAside(dataDir: string, target: string): Promise<string | null> {
  if (!existsSync(target)) {
    await Promise.all(['-wal', '-shm'].map((suffix) => rm(target + suffix, {force: true})))
    return null
  }
  foldWal(target)
  await Promise.all(['-wal', '-shm'].map((suffix) => rm(target + suffix, {force: true})))
  const aside = join(dataDir, REPLACED_DATABASE_FILE)
  await rename(target, aside)
  return aside
}
