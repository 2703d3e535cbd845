/**
 * Local secret storage for the CLI (identity private keys, api keys): the OS
 * keychain (service `mesh`) when one answers, else files of mode 0600 under
 * a directory (`.mesh/credentials/` by default). Headless Linux and CI have
 * no keychain, so they use files; callers tell the user which backend holds
 * the secret. Secrets are never logged.
 */
import {mkdir, open, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {MeshError} from '../lib/errors.js'
import {KEYCHAIN_SERVICE} from './constants.js'

export type SecretBackend = 'keychain' | 'file'

export interface SecretStore {
  /** Which backend this store writes to. */
  readonly backend: SecretBackend
  /** Human description of where secrets live, e.g. "OS keychain (service mesh)" or the folder. */
  readonly location: string
  get(name: string): Promise<string | null>
  set(name: string, value: string): Promise<void>
  delete(name: string): Promise<void>
}

export interface OpenSecretStoreOptions {
  /** Folder for the file backend (created with mode 0700). */
  dir: string
  /** `auto` (default) tries the keychain first; `file` never touches it. Env MESH_SECRETS_BACKEND overrides. */
  prefer?: 'auto' | 'keychain' | 'file'
  /** Keychain service name; default `mesh`. */
  service?: string
  /** How long to wait for the keychain to answer, ms (a missing D-Bus can stall). */
  keychainTimeoutMs?: number
}

/** Maps any secret name to a safe, injective file name. */
const fileNameOf = (name: string) =>
  name.replace(/[^A-Za-z0-9._@-]/g, (c) => '~' + c.codePointAt(0)!.toString(16).padStart(2, '0') + '~')

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message

/** Reads one secret file; null when absent. Refuses a file others can read, as ssh does for private keys. */
async function readSecretFile(file: string): Promise<string | null> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new MeshError('invalid', 'secret_unreadable', `Cannot read the secret file ${file}: ${errnoOf(error)}`, {cause: error})
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new MeshError('invalid', 'secret_unreadable', `The secret file ${file} is not a regular file; remove it and register again`)
    // Windows has no POSIX modes to check.
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      throw new MeshError('forbidden', 'secret_file_mode', `The secret file ${file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}); run \`chmod 600 ${file}\``)
    }
    // Hand-made files often end in a newline; no mesh secret has surrounding whitespace.
    const text = (await handle.readFile('utf8')).trim()
    return text === '' ? null : text
  } catch (error) {
    if (error instanceof MeshError) throw error
    throw new MeshError('invalid', 'secret_unreadable', `Cannot read the secret file ${file}: ${errnoOf(error)}`, {cause: error})
  } finally {
    await handle.close()
  }
}

/** Files of mode 0600 in a 0700 folder. */
export function createFileSecretStore(dir: string): SecretStore {
  return {
    backend: 'file',
    location: dir,
    get: (name) => readSecretFile(join(dir, fileNameOf(name))),
    async set(name, value) {
      try {
        await mkdir(dir, {recursive: true, mode: 0o700})
        await writeFileAtomic(join(dir, fileNameOf(name)), value, {mode: 0o600})
      } catch (error) {
        const why = errnoOf(error)
        const hint = why === 'ENOTDIR' || why === 'EEXIST' ? ' (a part of that path is a file, not a folder)' : ''
        throw new MeshError('invalid', 'secret_store_failed', `Cannot write a secret into ${dir}: ${why}${hint}; pass --credentials <folder> or set MESH_CREDENTIALS_DIR`, {cause: error})
      }
    },
    async delete(name) {
      await rm(join(dir, fileNameOf(name)), {force: true})
    },
  }
}

type KeyringModule = typeof import('@napi-rs/keyring')

const withTimeout = async <T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> => {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      work(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort()
          reject(new Error('keychain did not answer'))
        }, ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** The OS keychain through @napi-rs/keyring; null when no keychain answers a round trip. */
async function openKeychainStore(service: string, timeoutMs: number): Promise<SecretStore | null> {
  let keyring: KeyringModule
  try {
    keyring = await import('@napi-rs/keyring')
  } catch {
    return null
  }
  const entry = (name: string) => new keyring.AsyncEntry(service, name)
  try {
    // A real write/read/delete round trip: some platforms construct entries fine and only fail on use.
    const probe = entry('mesh-keychain-probe')
    await withTimeout((signal) => probe.setPassword('ok', signal), timeoutMs)
    const back = await withTimeout((signal) => probe.getPassword(signal), timeoutMs)
    await withTimeout((signal) => probe.deletePassword(signal), timeoutMs).catch(() => {})
    if (back !== 'ok') return null
  } catch {
    return null
  }
  return {
    backend: 'keychain',
    location: `OS keychain (service ${service})`,
    async get(name) {
      try {
        return (await withTimeout((signal) => entry(name).getPassword(signal), timeoutMs)) ?? null
      } catch {
        return null
      }
    },
    async set(name, value) {
      await withTimeout((signal) => entry(name).setPassword(value, signal), timeoutMs)
    },
    async delete(name) {
      await withTimeout((signal) => entry(name).deletePassword(signal), timeoutMs).catch(() => {})
    },
  }
}

/**
 * Opens the best secret store available: the keychain when it answers (and
 * is not refused by `prefer`/MESH_SECRETS_BACKEND), else 0600 files in `dir`.
 * The returned store's `backend` says which one was used.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const env = process.env.MESH_SECRETS_BACKEND
  const prefer = env === 'file' || env === 'keychain' ? env : (options.prefer ?? 'auto')
  if (prefer !== 'file') {
    const keychain = await openKeychainStore(options.service ?? KEYCHAIN_SERVICE, options.keychainTimeoutMs ?? 3000)
    if (keychain) return keychain
  }
  return createFileSecretStore(options.dir)
}
