/**
 * One look at the canonical standard version (spec Versioning 1 and item 5:
 * `{site_url}/standard/version`, a single integer) beside the installed
 * `.mesh/STANDARD_VERSION`. Never throws: offline, a bad answer or no URL is
 * an outcome with a reason (docs/daemon.md, Standard catch-up).
 */
import {readContainedFileSync} from '../../lib/contained-files.js'
import {meshPath} from '../../standard/project/project-root.js'
import {STANDARD_URL_ENV, STANDARD_VERSION_FILE, VERSION_PATH} from '../../standard/versioning/constants.js'
import {readInstalledVersion} from '../../standard/versioning/installed.js'
import {fetchText, parseCanonicalVersion, resolveStandardUrls, siteFromDocs} from '../../standard/versioning/remote.js'

export type UrlSource = 'env' | 'cluster.yaml' | 'mesh.json'

export type StandardCheck =
  | {state: 'off'; message: string}
  | {state: 'failed'; message: string; url?: string}
  | {state: 'checked'; url: string; source: UrlSource; installed: number | null; published: number}

/**
 * cluster.yaml `bootstrap.standard` names where the standard lives: its
 * `/standard/version` URL as is, a `…/standard` folder (→ `/version` below
 * it), or the site or its docs (→ `{site}/standard/version`, as mesh.json
 * `hub.docs` is read).
 */
export function versionUrlOf(standard: string): string {
  const url = new URL(standard)
  url.search = ''
  url.hash = ''
  const path = url.pathname.replace(/\/+$/, '')
  if (path.endsWith(`/${VERSION_PATH}`)) return url.toString()
  if (path.endsWith('/standard')) {
    url.pathname = `${path}/version`
    return url.toString()
  }
  return `${siteFromDocs(standard)}/${VERSION_PATH}`
}

/** `$MESH_STANDARD_URL` wins (set but empty: no check at all), then cluster.yaml `bootstrap.standard`, then mesh.json `hub.docs`. */
async function pickUrl(root: string, standardUrl: string | null, env: NodeJS.ProcessEnv): Promise<{url: string; source: UrlSource} | {off: string} | null> {
  const fromEnv = env[STANDARD_URL_ENV]
  if (fromEnv === '') return {off: `$${STANDARD_URL_ENV} is set empty`}
  if (fromEnv !== undefined) return {url: fromEnv, source: 'env'}
  if (standardUrl) return {url: versionUrlOf(standardUrl), source: 'cluster.yaml'}
  const fromBootstrap = await resolveStandardUrls(root, undefined, {})
  return fromBootstrap ? {url: fromBootstrap.versionUrl, source: 'mesh.json'} : null
}

const safeProtocol = (url: string) => {
  try {
    return new URL(url).protocol
  } catch {
    return ''
  }
}

/** A URL as the debug stream shows it: never with its user or password (house rule). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password) return url
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return '(not a URL)'
  }
}

export interface CheckOptions {
  root: string
  standardUrl: string | null
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
}

export async function checkStandard(options: CheckOptions): Promise<StandardCheck> {
  let picked: Awaited<ReturnType<typeof pickUrl>>
  try {
    picked = await pickUrl(options.root, options.standardUrl, options.env)
  } catch {
    picked = {url: '', source: 'cluster.yaml'}
  }
  if (picked && 'url' in picked && !/^https?:$/.test(safeProtocol(picked.url))) {
    return {state: 'failed', message: `the standard version URL ${shownUrl(picked.url)} (from ${picked.source}) is not an http(s) URL`}
  }
  if (picked === null) return {state: 'off', message: 'no standard URL configured (cluster.yaml bootstrap.standard or mesh.json hub.docs)'}
  if ('off' in picked) return {state: 'off', message: picked.off}
  const answer = await fetchText(picked.url, options.timeoutMs, options.signal)
  const shown = shownUrl(picked.url)
  if (!answer.ok) return {state: 'failed', url: shown, message: `${shown} did not answer: ${answer.reason.split(picked.url).join(shown)}`}
  const published = parseCanonicalVersion(answer.text)
  if (published === undefined) return {state: 'failed', url: shown, message: `${shown} did not answer with one integer`}
  let installed: number | null
  try {
    installed = await readInstalledVersion(options.root)
  } catch (error) {
    return {state: 'failed', url: shown, message: (error as Error).message}
  }
  return {state: 'checked', url: shown, source: picked.source, installed, published}
}

/** The installed version as /health reads it at each call (a migration shows at once); null when missing or not an integer. */
export function installedVersionNow(root: string): number | null {
  try {
    const text = readContainedFileSync(meshPath(root), STANDARD_VERSION_FILE)?.toString('utf8') ?? ''
    return /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : null
  } catch {
    return null
  }
}
