/**
 * Agent records the SQLite store has read, kept so a heartbeat costs no
 * reads: the token call loads the agent, the PATCH right after finds it here,
 * and a stable deployment is served from memory between its card changes.
 *
 * Coherence: every registry write of this process goes through the store,
 * which updates or drops the agent's entry inside the writing transaction
 * (and empties the cache if a transaction fails to commit). Writes by
 * another connection to the same file (another process) change SQLite's
 * `data_version`, checked at most once per event-loop turn: a read sees what
 * another process committed by the start of the turn. A change empties the
 * cache. One cache per database connection, shared by every store on it.
 *
 * Entries are handed out as shallow copies whose JSON values (card,
 * capabilities, probe) are frozen at their top level: callers treat records
 * as read-only, and the usual slips (push to the capabilities, set a card
 * field) throw instead of changing what the next caller reads.
 */
import type {SqliteDatabase} from '../../store/sqlite.js'
import type {AgentRecord} from '../types.js'

interface Entry {
  /** Frozen, lastSeenMs left out (it moves on every heartbeat). */
  record: Readonly<AgentRecord>
  lastSeenMs: number | null
}

/** Freezes the record and its JSON values' top level (a deep freeze costs more than the read it saves). */
function freeze(record: AgentRecord): Readonly<AgentRecord> {
  Object.freeze(record.capabilities)
  if (record.agentCard) Object.freeze(record.agentCard)
  if (record.probe) Object.freeze(record.probe)
  return Object.freeze(record)
}

/**
 * Keeps at least the `capacity` most recently used records, and at most
 * twice that: two generations of `capacity` each approximate least-recently
 * used eviction without reordering on every hit. A registry of up to
 * `capacity` agents heartbeating in turn is served from memory.
 */
export class AgentRecordCache {
  private young = new Map<string, Entry>()
  private old = new Map<string, Entry>()
  private readonly generation: number
  private readonly dataVersion
  private knownVersion: unknown
  private checkedThisTurn = false

  constructor(db: SqliteDatabase, capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new TypeError('record cache capacity must be a non-negative integer')
    this.generation = capacity
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
    this.insert(record.agentId, {record: freeze(record), lastSeenMs: record.lastSeenMs})
  }

  /**
   * Applies written fields to a cached record (inside the writing
   * transaction); values must be fresh copies in their stored form.
   */
  patch(agentId: string, fields: Partial<AgentRecord>): void {
    const entry = this.young.get(agentId) ?? this.old.get(agentId)
    if (entry) entry.record = freeze({...entry.record, ...fields})
  }

  /** Moves a cached watermark (inside the heartbeat's transaction). */
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
