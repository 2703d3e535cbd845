/**
 * The portal token: generated once into `.mesh/credentials/portal-token`
 * (mode 0600, DECISIONS: Daemon runtime) and required as a Bearer token on
 * every write route and on /events. Never logged.
 */
import {randomBytes, timingSafeEqual} from 'node:crypto'
import {mkdir, readFile, stat} from 'node:fs/promises'
import {dirname} from 'node:path'
import {invalid} from '../lib/errors.js'
import {createFileExclusive} from '../lib/exclusive-create.js'
import {meshPath} from '../standard/tasks/project-root.js'
import {PORTAL_TOKEN_FILE} from './constants.js'

/** `mpt_` + 256 random bits, base64url: recognisable in a leak scan, unguessable. */
const newToken = () => `mpt_${randomBytes(32).toString('base64url')}`

/** Reads the portal token, creating it (0600) on first use. A token file others can read is refused, as ssh does. */
export async function loadPortalToken(root: string): Promise<string> {
  const path = meshPath(root, PORTAL_TOKEN_FILE)
  // spec layout: credentials/ holds secrets; only the owner may list it.
  await mkdir(dirname(path), {recursive: true, mode: 0o700})
  await createFileExclusive(path, newToken() + '\n', {mode: 0o600})
  const info = await stat(path)
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    throw invalid('portal_token_exposed', `${path} can be read by other users; run \`chmod 600 ${path}\``)
  }
  const token = (await readFile(path, 'utf8')).trim()
  if (token.length < 16) throw invalid('portal_token_invalid', `${path} does not hold a token; delete it and start the daemon again`)
  return token
}

/** Constant-time comparison of a presented token with the portal token. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (!presented) return false
  const a = Buffer.from(presented)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}
