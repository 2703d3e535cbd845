/**
 * The standard catch-up area (docs/daemon.md, Standard catch-up): once at
 * start and every 24 hours it reads the published standard version and, when
 * the project is behind, /health says so. One debug line (`standard.check`)
 * per look, whatever its outcome; no warning for being offline.
 */
import {DEFAULT_FETCH_TIMEOUT_MS} from '../../standard/versioning/constants.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {checkStandard, installedVersionNow, type StandardCheck} from './check.js'

export {checkStandard, versionUrlOf, type StandardCheck} from './check.js'

/** spec item 5: agents look once per session or every 24 h; the daemon does the same. */
export const STANDARD_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000
export const STANDARD_CHECK_TAG = 'standard.check'

export interface StandardCheckOptions {
  /** Between two looks (default 24 h). */
  intervalMs?: number
  /** How long one look waits for an answer (default 3 s, as `mesh standard status`). */
  timeoutMs?: number
  /** Where `MESH_STANDARD_URL` is read (default process.env), at each look. */
  env?: NodeJS.ProcessEnv
}

export interface StandardCheckArea extends DaemonArea {
  /** One look now; resolves once it is reported. */
  checkNow(): Promise<StandardCheck | null>
}

export function standardCheckArea(context: DaemonContext, options: StandardCheckOptions = {}): StandardCheckArea {
  const intervalMs = options.intervalMs ?? STANDARD_CHECK_INTERVAL_MS
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS
  const stop = new AbortController()
  let interval: NodeJS.Timeout | undefined
  let running: Promise<StandardCheck | null> | null = null
  // The last published version seen; an offline look keeps it (a known gap stays known).
  let published: number | null = null

  const report = (check: StandardCheck) => {
    if (stop.signal.aborted) return
    if (check.state === 'off') {
      published = null
      context.debug.log({lvl: 'debug', tag: STANDARD_CHECK_TAG, msg: `not checked: ${check.message}`})
    } else if (check.state === 'failed') {
      context.debug.log({lvl: 'debug', tag: STANDARD_CHECK_TAG, msg: `no published version: ${check.message}`})
    } else {
      published = check.published
      const installed = check.installed === null ? 'none installed' : `v${check.installed} installed`
      const behind = check.installed !== null && check.installed < check.published
      context.debug.log({lvl: behind ? 'info' : 'debug', tag: STANDARD_CHECK_TAG, msg: `${installed}, v${check.published} published (${check.url}, from ${check.source})`})
    }
  }

  const checkNow = (): Promise<StandardCheck | null> => {
    if (stop.signal.aborted) return Promise.resolve(null)
    running ??= checkStandard({root: context.root, standardUrl: context.settings().standardUrl, env: options.env ?? process.env, timeoutMs, signal: stop.signal})
      .then((check) => {
        report(check)
        return check
      })
      .catch(() => null)
      .finally(() => (running = null))
    return running
  }

  return {
    name: 'standard-check',
    routes: [],
    checkNow,
    start() {
      void checkNow()
      interval = setInterval(() => void checkNow(), intervalMs)
      interval.unref()
    },
    async close() {
      clearInterval(interval)
      stop.abort()
      await running
    },
    warnings() {
      if (published === null) return []
      const installed = installedVersionNow(context.root)
      if (installed === null || installed >= published) return []
      return [`standard v${installed} installed, v${published} published: run \`mesh standard status\``]
    },
  }
}
