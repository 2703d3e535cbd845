/**
 * The portal token: generated once into `.mesh/credentials/portal-token`
 * (mode 0600, DECISIONS: Daemon runtime) and required as a Bearer token on
 * every write route and on /events. Never logged.
 */
import {randomBytes, timingSafeEqual} from 'node:crypto'
import {lstat} from 'node:fs/promises'
import {createContainedFileExclusive, isPathRefused, readContainedText} from '../lib/contained-files.js'
import {invalid} from '../lib/errors.js'
import {meshPath} from '../standard/project/project-root.js'
import {PORTAL_TOKEN_FILE} from './constants.js'

/** `mpt_` + 256 random bits, base64url: recognisable in a leak scan, unguessable. */
const newToken = () => `mpt_${randomBytes(32).toString('base64url')}`

/** Reads the portal token, creating it (0600) on first use. A token file others can read is refused, as ssh does. */
export async function loadPortalToken(root: string): Promise<string> {
  const path = meshPath(root, PORTAL_TOKEN_FILE)
  // spec layout: credentials/ holds secrets; only the owner may list it. A linked credentials/ is refused (issue 18).
  await createContainedFileExclusive(meshPath(root), PORTAL_TOKEN_FILE, newToken() + '\n', {mode: 0o600, folderMode: 0o700})
  // Read before the mode check: a link is refused there (its target would become the token), never followed.
  const text = await readContainedText(meshPath(root), PORTAL_TOKEN_FILE).catch((error: unknown) => {
    if (isPathRefused(error)) throw invalid('portal_token_invalid', `${path} is not a regular file (${String(error.details?.reason)}); delete it and start the daemon again`)
    throw error
  })
  await assertPortalTokenPrivate(path)
  const token = (text ?? '').trim()
  if (token.length < 16) throw invalid('portal_token_invalid', `${path} does not hold a token; delete it and start the daemon again`)
  return token
}

/**
 * Refuses (`portal_token_exposed`) a token file with any group or other permission bit, as ssh refuses such a
 * key: the daemon at start and `mesh daemon token` alike (docs/daemon.md, Portal token).
 */
export async function assertPortalTokenPrivate(path: string): Promise<void> {
  const info = await lstat(path)
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    throw invalid('portal_token_exposed', `${path} can be read by other users; run \`chmod 600 ${path}\``)
  }
}

/** Constant-time comparison of a presented token with the portal token. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (!presented) return false
  const a = Buffer.from(presented)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}
