/**
 * The parts of cluster.yaml the daemon acts on (spec: cluster.yaml), read
 * leniently: a value of the wrong type falls back to its default and the
 * daemon says so in the debug stream; `mesh validate` is where a file is judged.
 */
import {readContainedText} from '../lib/contained-files.js'
import {isMeshError} from '../lib/errors.js'
import {parse} from 'yaml'
import {meshPath} from '../standard/project/project-root.js'
import {ARCHITECT_MIN_INTERVAL_MAX_SECONDS, ARCHITECT_MIN_INTERVAL_SECONDS} from './architect/constants.js'
import {DAEMON_PORT_FIRST, SNAPSHOT_RETENTION_DAYS} from './constants.js'

export interface DaemonSettings {
  /** cluster.yaml `id`, or null. */
  id: string | null
  /** `architect.port`, default 5570. */
  port: number
  /**
   * mesh additions to `architect` (docs/daemon.md, Architect): `auto` (default false) wakes the architect when a
   * task becomes dispatchable; `min_interval_seconds` (default 60, 0 turns the debounce off) spaces those passes.
   */
  architect: {auto: boolean; minIntervalSeconds: number}
  snapshots: {enabled: boolean; retentionDays: number}
  git: {autoPull: boolean; autoCommit: boolean; branch: string}
  /** `bootstrap.standard`: where the canonical standard lives, if set. */
  standardUrl: string | null
  /** `transport`: the project's live channel (workflow default `websocket`); docs/daemon.md, Transport. */
  transport: {workflow: string; endpoint: string | null; fallback: string | null}
  /** `tasks.archive_after_days` (a mesh addition): done tasks are archived this many days after completion; null: never by the daemon. */
  tasks: {archiveAfterDays: number | null}
  /** Values that were present but unusable, for the debug stream. */
  problems: string[]
}

const object = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

export async function readDaemonSettings(root: string): Promise<DaemonSettings> {
  const problems: string[] = []
  let data: Record<string, unknown> = {}
  try {
    // Never through a link (issue 18): a linked cluster.yaml is refused and the defaults apply.
    const text = await readContainedText(meshPath(root), 'public/cluster.yaml')
    if (text !== null) data = object(parse(text))
    else problems.push('cluster.yaml could not be read (ENOENT); defaults apply')
  } catch (error) {
    const why = isMeshError(error) ? error.message : ((error as NodeJS.ErrnoException).code ?? 'invalid YAML')
    problems.push(`cluster.yaml could not be read (${why}); defaults apply`)
  }
  const pick = <T>(value: unknown, ok: (v: unknown) => v is T, fallback: T, name: string): T => {
    if (value === undefined) return fallback
    if (ok(value)) return value
    problems.push(`${name} is not usable (${JSON.stringify(value)}); using ${JSON.stringify(fallback)}`)
    return fallback
  }
  const isBool = (v: unknown): v is boolean => typeof v === 'boolean'
  const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535
  const isDays = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 365
  const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0
  const isInterval = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= ARCHITECT_MIN_INTERVAL_MAX_SECONDS
  const architect = object(data.architect)
  const snapshots = object(data.snapshots)
  const git = object(data.git)
  const transport = object(data.transport)
  const isArchiveDays = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 36500
  return {
    id: typeof data.id === 'string' ? data.id : null,
    port: pick(architect.port, isPort, DAEMON_PORT_FIRST, 'architect.port'),
    architect: {
      auto: pick(architect.auto, isBool, false, 'architect.auto'),
      minIntervalSeconds: pick(architect.min_interval_seconds, isInterval, ARCHITECT_MIN_INTERVAL_SECONDS, 'architect.min_interval_seconds'),
    },
    snapshots: {
      enabled: pick(snapshots.enabled, isBool, true, 'snapshots.enabled'),
      retentionDays: pick(snapshots.retention_days, isDays, SNAPSHOT_RETENTION_DAYS, 'snapshots.retention_days'),
    },
    git: {
      autoPull: pick(git.auto_pull, isBool, true, 'git.auto_pull'),
      autoCommit: pick(git.auto_commit, isBool, false, 'git.auto_commit'),
      branch: pick(git.branch, isString, 'main', 'git.branch'),
    },
    standardUrl: pick(object(data.bootstrap).standard, isString, null as unknown as string, 'bootstrap.standard') ?? null,
    transport: {
      workflow: pick(transport.workflow, (v): v is string => v === 'websocket' || v === 'sse' || v === 'nats', 'websocket', 'transport.workflow'),
      endpoint: pick(transport.endpoint, isString, null as unknown as string, 'transport.endpoint') ?? null,
      fallback: pick(transport.fallback, isString, null as unknown as string, 'transport.fallback') ?? null,
    },
    tasks: {archiveAfterDays: pick(object(data.tasks).archive_after_days, isArchiveDays, null as unknown as number, 'tasks.archive_after_days') ?? null},
    problems,
  }
}
