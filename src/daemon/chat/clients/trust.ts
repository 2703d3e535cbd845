/**
 * The user's trust records (issue 18, as direnv's `allow`): for each project
 * file the user trusted, keyed by its absolute real path, the SHA-256 of the
 * exact bytes they read. A file whose bytes differ is untrusted again.
 * Kept in `<user config>/trusted.json`, written atomically with mode 0600 in
 * a folder created 0700; a records file others could change is not believed.
 */
import {createHash} from 'node:crypto'
import {mkdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../../../lib/atomic-write.js'
import {userFileProblem} from '../../../lib/user-config.js'

export const TRUST_FILE = 'trusted.json'

export interface TrustRecord {
  sha256: string
  trusted_at: string
}

interface TrustFile {
  version: 1
  files: Record<string, TrustRecord>
}

export interface TrustRecords {
  files: Record<string, TrustRecord>
  /** Why the records file is not believed (then `files` is empty), or null. */
  problem: string | null
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The records of the user whose config folder is `configDir`; none when the file is missing. */
export async function readTrust(configDir: string): Promise<TrustRecords> {
  const path = join(configDir, TRUST_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {files: {}, problem: null}
    return {files: {}, problem: `${path} cannot be read (${(error as Error).message}); no project file is trusted`}
  }
  const problem = await userFileProblem(path)
  if (problem) return {files: {}, problem: `${problem}; no project file is trusted until then`}
  try {
    const data = JSON.parse(text) as Partial<TrustFile>
    const files: Record<string, TrustRecord> = {}
    for (const [file, record] of Object.entries(data.files ?? {})) if (record && typeof record.sha256 === 'string') files[file] = record
    return {files, problem: null}
  } catch {
    return {files: {}, problem: `${path} is not valid JSON; no project file is trusted (delete it and run \`mesh trust\` again)`}
  }
}

async function writeTrust(configDir: string, files: Record<string, TrustRecord>): Promise<void> {
  await mkdir(configDir, {recursive: true, mode: 0o700})
  const body: TrustFile = {version: 1, files}
  await writeFileAtomic(join(configDir, TRUST_FILE), JSON.stringify(body, null, 2) + '\n', {mode: 0o600})
}

/** Records that the user trusts the bytes whose hash is `hash` at `realPath`. */
export async function recordTrust(configDir: string, realPath: string, hash: string, now: Date = new Date()): Promise<void> {
  const current = await readTrust(configDir)
  await writeTrust(configDir, {...current.files, [realPath]: {sha256: hash, trusted_at: now.toISOString()}})
}

/** Forgets `realPath`; false when it was not trusted. */
export async function revokeTrust(configDir: string, realPath: string): Promise<boolean> {
  const current = await readTrust(configDir)
  if (!current.files[realPath]) return false
  const files = {...current.files}
  delete files[realPath]
  await writeTrust(configDir, files)
  return true
}
