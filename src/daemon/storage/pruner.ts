/**
 * The storage area's background work: one prune at start, then one every
 * hour, never two at once. Each pass writes one `storage.prune` line to the
 * debug stream with its counts; a failing pass is a `warn` line, never a
 * crash. The clock and the timer are injected so tests drive time.
 */
import type {DaemonContext} from '../context.js'
import {STORAGE_PRUNE_INTERVAL_MS} from '../constants.js'
import {pruneStorage, type PruneReport} from './prune.js'

export interface Timers {
  setInterval(run: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export interface PrunerOptions {
  intervalMs?: number
  timers?: Timers
  /** Called after each pass (the usage cache is dropped). */
  onPruned?(report: PruneReport): void
}

export interface Pruner {
  start(): void
  /** Runs a pass now, or joins the one under way. */
  run(): Promise<PruneReport>
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>
}

const realTimers: Timers = {
  setInterval(run, ms) {
    const handle = setInterval(run, ms)
    // Pruning alone never keeps the process alive.
    handle.unref()
    return handle
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
}

const describe = (report: PruneReport) =>
  [
    report.snapshots_skipped ? 'snapshots kept (snapshots.enabled is false)' : `${report.snapshot_days_removed.length} snapshot day folder(s) removed`,
    `${report.uploads_removed} upload(s) removed`,
    `${report.bytes_freed} bytes freed`,
    ...(report.errors ?? []).map((error) => `could not prune ${error}`),
  ].join(', ')

export function createPruner(context: DaemonContext, options: PrunerOptions = {}): Pruner {
  const timers = options.timers ?? realTimers
  let handle: unknown
  let running: Promise<PruneReport> | undefined

  const pass = async (): Promise<PruneReport> => {
    const report = await pruneStorage({meshDir: context.meshPath(), now: context.clock(), snapshots: context.settings().snapshots})
    context.debug.log({lvl: report.errors ? 'warn' : 'info', tag: 'storage.prune', msg: describe(report), data: {...report}})
    return report
  }

  const run = () => {
    running ??= (async () => {
      let report: PruneReport
      try {
        report = await pass()
      } finally {
        running = undefined
      }
      // Once the pass is over, so a listener that starts the next one gets a new pass.
      options.onPruned?.(report)
      return report
    })()
    return running
  }

  return {
    start() {
      // pruneStorage reports its failures instead of throwing; the catch only keeps a bug from becoming an unhandled rejection.
      const background = () => void run().catch((error) => context.debug.log({lvl: 'error', tag: 'storage.prune', msg: `pruning failed: ${String(error)}`}))
      background()
      handle = timers.setInterval(background, options.intervalMs ?? STORAGE_PRUNE_INTERVAL_MS)
    },
    run,
    async stop() {
      if (handle !== undefined) timers.clearInterval(handle)
      handle = undefined
      await running
    },
  }
}
