import {readContainedText} from '../../lib/contained-files.js'
import {invalid} from '../../lib/errors.js'
import {BOOTSTRAP_FILE} from '../constants.js'
import {CHANGELOG_PATH, STANDARD_URL_ENV, VERSION_PATH} from './constants.js'

export interface StandardUrls {
  versionUrl: string
  changelogUrl: string
  /** Where the URL came from. */
  source: 'flag' | 'env' | 'mesh.json'
}

/**
 * The site of a `hub.docs` URL: the URL without a trailing `/docs` segment
 * (`https://mesh.dev/docs` → `https://mesh.dev`); any other path is kept.
 */
export function siteFromDocs(docs: string): string {
  const url = new URL(docs)
  url.search = ''
  url.hash = ''
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/docs$/, '')
  return url.toString().replace(/\/+$/, '')
}

/**
 * The canonical version URL and the changelog beside it: `--url` wins, then
 * `$MESH_STANDARD_URL`, then `{site}/standard/version` with the site derived
 * from mesh.json `hub.docs`. The changelog is `CHANGELOG.md` in the version
 * URL's folder. Returns null when none is configured.
 */
export async function resolveStandardUrls(root: string, flagUrl?: string, env: NodeJS.ProcessEnv = process.env): Promise<StandardUrls | null> {
  const pick = async (): Promise<{url: string; source: StandardUrls['source']} | null> => {
    if (flagUrl) return {url: flagUrl, source: 'flag'}
    if (env[STANDARD_URL_ENV]) return {url: env[STANDARD_URL_ENV]!, source: 'env'}
    try {
      // mesh.json is read as a regular file of the repository root, never through a link (issue 18).
      const bootstrap = JSON.parse((await readContainedText(root, BOOTSTRAP_FILE)) ?? '') as {hub?: {docs?: unknown}}
      if (typeof bootstrap.hub?.docs === 'string') return {url: `${siteFromDocs(bootstrap.hub.docs)}/${VERSION_PATH}`, source: 'mesh.json'}
    } catch {
      // No or unreadable mesh.json: no configured URL (reported as such, not an error).
    }
    return null
  }
  const picked = await pick()
  if (!picked) return null
  let versionUrl: URL
  try {
    versionUrl = new URL(picked.url)
  } catch {
    throw invalid('usage_url_invalid', `The standard version URL "${picked.url}" (from ${picked.source}) is not a URL.`, {field: 'url'})
  }
  if (versionUrl.protocol !== 'http:' && versionUrl.protocol !== 'https:') {
    throw invalid('usage_url_invalid', `The standard version URL must be http(s), got "${picked.url}".`, {field: 'url'})
  }
  const changelog = new URL(CHANGELOG_PATH.split('/').pop()!, versionUrl)
  return {versionUrl: versionUrl.toString(), changelogUrl: changelog.toString(), source: picked.source}
}

/**
 * A GET that gives up after `timeoutMs` (or when `signal` aborts: a daemon
 * stopping); resolves to the body or an error reason, never throws.
 */
export async function fetchText(url: string, timeoutMs: number, signal?: AbortSignal): Promise<{ok: true; text: string} | {ok: false; reason: string}> {
  try {
    const timeout = AbortSignal.timeout(timeoutMs)
    const response = await fetch(url, {signal: signal ? AbortSignal.any([timeout, signal]) : timeout, redirect: 'follow'})
    if (!response.ok) return {ok: false, reason: `HTTP ${response.status}`}
    return {ok: true, text: await response.text()}
  } catch (error) {
    const err = error as Error & {cause?: {code?: string}}
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return {ok: false, reason: `no answer within ${timeoutMs} ms`}
    return {ok: false, reason: err.cause?.code ?? err.message}
  }
}

/** The canonical version: the whole body must be one integer (spec item 5). */
export function parseCanonicalVersion(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : undefined
}
