/**
 * The deployment's shared secrets (JWT signing secret, admin key). Each is
 * generated once, kept in the registry store (so every node on one
 * PostgreSQL database agrees) and mirrored to a 0600 file in the data dir
 * (DECISIONS: the admin key lives in the data dir, printed by
 * `mesh registry admin-key`). An existing file seeds a new database.
 */
import {randomBytes} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {ADMIN_KEY_FILE, ADMIN_KEY_NAME, JWT_SECRET_FILE, JWT_SECRET_NAME} from './constants.js'
import type {RegistryStore} from './store/store.js'

async function readTrimmed(path: string): Promise<string | null> {
  try {
    const text = (await readFile(path, 'utf8')).trim()
    return text || null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Returns the secret every node uses, creating it (and its file) when missing. */
export async function loadSharedSecret(store: RegistryStore, dataDir: string, name: string, file: string, generate: () => string): Promise<string> {
  const path = join(dataDir, file)
  const fromFile = await readTrimmed(path)
  const value = await store.claimSecret(name, fromFile ?? generate())
  if (value !== fromFile) await writeFileAtomic(path, value + '\n', {mode: 0o600})
  return value
}

/** The JWT secret (32 random bytes) and the admin key (`madm_` + 32 random bytes, base64url). */
export async function loadRegistrySecrets(store: RegistryStore, dataDir: string): Promise<{jwtSecret: Uint8Array; adminKey: string}> {
  const jwt = await loadSharedSecret(store, dataDir, JWT_SECRET_NAME, JWT_SECRET_FILE, () => randomBytes(32).toString('base64url'))
  const adminKey = await loadSharedSecret(store, dataDir, ADMIN_KEY_NAME, ADMIN_KEY_FILE, () => 'madm_' + randomBytes(32).toString('base64url'))
  return {jwtSecret: new Uint8Array(Buffer.from(jwt, 'base64url')), adminKey}
}

/** Reads the admin key file of a data dir (for `mesh registry admin-key`); null when absent. */
export const readAdminKeyFile = (dataDir: string) => readTrimmed(join(dataDir, ADMIN_KEY_FILE))
