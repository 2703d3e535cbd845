/**
 * The storage report (`GET /storage/usage`, spec Endpoints and Limits): one
 * bucket per part of `.mesh/` that grows on its own (spec Folder layout), with
 * its retention where the daemon prunes it, totals summed over the buckets,
 * and the answer cached 5 s so a polling IDE never walks the disk more often.
 * docs/daemon-api.md, Storage.
 */
import {join} from 'node:path'
import {DEBUG_FILE, DEBUG_RETENTION_MS, STORAGE_CACHE_MS, UPLOAD_RETENTION_DAYS} from '../constants.js'
import {measure, subfolders, sum, type Measured} from './measure.js'

export interface StorageBucket {
  name: string
  /** Where it is, relative to `.mesh/` (`*` stands for every module). */
  path: string
  bytes: number
  files: number
  exists: boolean
  /** Files older than this many days are deleted by the daemon. */
  retention_days?: number
  /** The debug stream keeps this many seconds (and at most 5 MB). */
  retention_secs?: number
}

export interface StorageUsage {
  /** The `.mesh/` folder. */
  root: string
  /** Sum over `buckets` (not the whole of `.mesh/`). */
  total_bytes: number
  total_files: number
  buckets: StorageBucket[]
  generated_at: string
  cache_ttl_secs: number
}

interface BucketSpec {
  name: string
  path: string
  measure(meshDir: string): Promise<Measured>
  retention?(settings: UsageSettings): Pick<StorageBucket, 'retention_days' | 'retention_secs'>
}

export interface UsageSettings {
  snapshotRetentionDays: number
}

const folder = (name: string, path: string, retention?: BucketSpec['retention']): BucketSpec => ({
  name,
  path: path + '/',
  measure: (meshDir) => measure(join(meshDir, path)),
  retention,
})

/** The buckets, in the order of the answer. */
export const BUCKETS: BucketSpec[] = [
  folder('timeline', 'timeline'),
  folder('log', 'log'),
  folder('queues', 'queues'),
  folder('uploads', 'uploads', () => ({retention_days: UPLOAD_RETENTION_DAYS})),
  folder('snapshots', 'snapshots', (settings) => ({retention_days: settings.snapshotRetentionDays})),
  {name: 'debug_stream', path: DEBUG_FILE, measure: (meshDir) => measure(join(meshDir, DEBUG_FILE)), retention: () => ({retention_secs: DEBUG_RETENTION_MS / 1000})},
  folder('workflows_log', 'workflows/log'),
  folder('protocols_log', 'protocols/log'),
  {
    // Archived tasks (modules/<id>/log/<YYYY-MM>/), one bucket for every module.
    name: 'task_archives',
    path: 'modules/*/log/',
    measure: async (meshDir) => sum(await Promise.all((await subfolders(join(meshDir, 'modules'))).map((id) => measure(join(meshDir, 'modules', id, 'log'))))),
  },
]

/** Walks every bucket now. */
export async function measureUsage(meshDir: string, settings: UsageSettings, now: number): Promise<StorageUsage> {
  const buckets = await Promise.all(
    BUCKETS.map(async (spec): Promise<StorageBucket> => ({name: spec.name, path: spec.path, ...(await spec.measure(meshDir)), ...spec.retention?.(settings)})),
  )
  return {
    root: meshDir,
    total_bytes: buckets.reduce((n, b) => n + b.bytes, 0),
    total_files: buckets.reduce((n, b) => n + b.files, 0),
    buckets,
    generated_at: new Date(now).toISOString(),
    cache_ttl_secs: STORAGE_CACHE_MS / 1000,
  }
}

export interface UsageReporter {
  /** The cached report while it is younger than the cache time, else a fresh one; concurrent callers share one walk. */
  read(): Promise<StorageUsage>
  /** Drops the cached report (after a prune). */
  invalidate(): void
}

export function createUsageReporter(options: {meshDir: string; clock: () => number; settings: () => UsageSettings; cacheMs?: number}): UsageReporter {
  const cacheMs = options.cacheMs ?? STORAGE_CACHE_MS
  let cached: {at: number; usage: Promise<StorageUsage>} | undefined
  return {
    read() {
      const now = options.clock()
      if (!cached || now - cached.at >= cacheMs || now < cached.at) {
        const usage = measureUsage(options.meshDir, options.settings(), now)
        const entry = {at: now, usage}
        cached = entry
        // A failed walk is not cached: the next call tries again.
        usage.catch(() => {
          if (cached === entry) cached = undefined
        })
      }
      return cached.usage
    },
    invalidate() {
      cached = undefined
    },
  }
}
