/**
 * Agent records the SQLite store has read, kept so a heartbeat costs no
 * reads: the token call loads the agent, the PATCH right after finds it here,
 * and a stable deployment is served from memory between its card changes.
 *
 * Coherence: every registry write of this process goes through the store,
 * which drops the agent's entry inside the writing transaction (or moves the
 * heartbeat watermark once it is committed). Writes by another connection to
 * the same file (another process) change SQLite's `data_version`, checked at
 * most once per event-loop turn; a change empties the cache. One cache per
 * database connection, shared by every store on it.
 *
 * Entries are frozen (nested JSON included) and handed out as shallow
 * copies, so no caller can change what another one reads.
 */
import type {SqliteDatabase} from '../../store/sqlite.js'
import type {AgentRecord} from '../types.js'

interface Entry {
  /** Frozen, lastSeenMs left out (it moves on every heartbeat). */
  record: Readonly<AgentRecord>
  lastSeenMs: number | null
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

export class AgentRecordCache {
  // Two generations approximate least-recently-used eviction without reordering on every hit.
  private young = new Map<string, Entry>()
  private old = new Map<string, Entry>()
  private readonly generation: number
  private readonly dataVersion
  private knownVersion: unknown
  private checkedThisTurn = false

  constructor(db: SqliteDatabase, capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new TypeError('record cache capacity must be a non-negative integer')
    this.generation = Math.floor(capacity / 2)
    this.dataVersion = db.prepare('PRAGMA data_version').pluck()
    this.knownVersion = this.dataVersion.get()
  }

  /** Empties the cache when another connection committed since the last check (at most one check per turn). */
  private revalidate(): void {
    if (this.checkedThisTurn) return
    this.checkedThisTurn = true
    setImmediate(() => (this.checkedThisTurn = false))
    const version = this.dataVersion.get()
    if (version !== this.knownVersion) {
      this.knownVersion = version
      this.clear()
    }
  }

  private entry(agentId: string): Entry | undefined {
    let entry = this.young.get(agentId)
    if (entry === undefined) {
      entry = this.old.get(agentId)
      if (entry === undefined) return undefined
      this.old.delete(agentId)
      this.insert(agentId, entry)
    }
    return entry
  }

  private insert(agentId: string, entry: Entry): void {
    this.young.set(agentId, entry)
    if (this.young.size >= this.generation) {
      this.old = this.young
      this.young = new Map()
    }
  }

  /** A copy of the cached record, or undefined. */
  get(agentId: string): AgentRecord | undefined {
    if (this.generation === 0) return undefined
    this.revalidate()
    const entry = this.entry(agentId)
    return entry && {...entry.record, lastSeenMs: entry.lastSeenMs}
  }

  /** Caches a record just read from the database (the record itself is frozen). */
  put(record: AgentRecord): void {
    if (this.generation === 0) return
    this.revalidate()
    this.delete(record.agentId)
    this.insert(record.agentId, {record: deepFreeze(record), lastSeenMs: record.lastSeenMs})
  }

  /** Moves a cached watermark after its heartbeat was committed. */
  setLastSeen(agentId: string, lastSeenMs: number): void {
    const entry = this.young.get(agentId) ?? this.old.get(agentId)
    if (entry && (entry.lastSeenMs === null || lastSeenMs > entry.lastSeenMs)) entry.lastSeenMs = lastSeenMs
  }

  delete(agentId: string): void {
    this.young.delete(agentId)
    this.old.delete(agentId)
  }

  clear(): void {
    this.young = new Map()
    this.old = new Map()
  }
}

const caches = new WeakMap<SqliteDatabase, AgentRecordCache>()

/** The cache of a connection (created on first use; the capacity of the first caller wins). */
export function recordCacheOf(db: SqliteDatabase, capacity: number): AgentRecordCache {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new AgentRecordCache(db, capacity)))
  return cache
}
