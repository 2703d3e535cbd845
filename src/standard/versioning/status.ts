import {BUILTIN_CHANGELOG, BUILTIN_LATEST, entriesBetween, parseChangelog, type ChangelogEntry} from './changelog.js'
import {DEFAULT_FETCH_TIMEOUT_MS} from './constants.js'
import {readInstalledVersion} from './installed.js'
import {fetchText, parseCanonicalVersion, resolveStandardUrls} from './remote.js'

export interface StandardStatus {
  /** `.mesh/STANDARD_VERSION`, or null when the file is missing. */
  installed: number | null
  /** The canonical integer, or null when it could not be read. */
  canonical: number | null
  /** The newest version this build of mesh knows (and `migrate` moves to). */
  builtin_latest: number
  /** current, behind, ahead, or unknown (canonical version not available). */
  state: 'current' | 'behind' | 'ahead' | 'unknown'
  /** Whether the canonical version was fetched. */
  online: boolean
  /** Why it was not, when it was not. */
  offline_reason: string | null
  version_url: string | null
  changelog_url: string | null
  /** Where the entries come from: the fetched CHANGELOG.md, or the table built into mesh. */
  changelog_source: 'remote' | 'built-in'
  /** The entries between installed and canonical (or all newer built-in ones when offline), oldest first. */
  entries: ChangelogEntry[]
}

export interface StatusOptions {
  url?: string
  timeoutMs?: number
  env?: NodeJS.ProcessEnv
}

/**
 * Compares `.mesh/STANDARD_VERSION` with the canonical integer and lists the
 * changelog entries in between. Offline (unreachable, timeout, non-integer
 * answer, nothing configured) it still answers, from the built-in changelog.
 */
export async function standardStatus(root: string, options: StatusOptions = {}): Promise<StandardStatus> {
  const installed = await readInstalledVersion(root)
  const urls = await resolveStandardUrls(root, options.url, options.env)
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
  let canonical: number | null = null
  let offlineReason: string | null = urls ? null : 'no URL configured (--url, $MESH_STANDARD_URL or mesh.json hub.docs)'
  if (urls) {
    const answer = await fetchText(urls.versionUrl, timeoutMs)
    if (!answer.ok) offlineReason = `${urls.versionUrl}: ${answer.reason}`
    else if (parseCanonicalVersion(answer.text) === undefined) offlineReason = `${urls.versionUrl} did not answer with one integer`
    else canonical = parseCanonicalVersion(answer.text)!
  }
  const from = installed ?? 0
  let entries = entriesBetween(BUILTIN_CHANGELOG, from, canonical)
  let changelogSource: StandardStatus['changelog_source'] = 'built-in'
  if (urls && canonical !== null && canonical > from) {
    const changelog = await fetchText(urls.changelogUrl, timeoutMs)
    const remote = changelog.ok ? entriesBetween(parseChangelog(changelog.text), from, canonical) : []
    if (remote.length > 0) {
      entries = remote
      changelogSource = 'remote'
    }
  }
  const state: StandardStatus['state'] =
    canonical === null || installed === null ? 'unknown' : installed === canonical ? 'current' : installed < canonical ? 'behind' : 'ahead'
  return {
    installed,
    canonical,
    builtin_latest: BUILTIN_LATEST,
    state,
    online: canonical !== null,
    offline_reason: offlineReason,
    version_url: urls?.versionUrl ?? null,
    changelog_url: urls?.changelogUrl ?? null,
    changelog_source: changelogSource,
    entries,
  }
}
