/**
 * Group commit on SQLite: the writes requested in one turn of the event loop
 * run in one transaction, committed together at setImmediate. On a WAL
 * database the commit (WAL append, the amortised checkpoint and its fsync)
 * costs far more than a one-row update, and a busy registry receives many
 * heartbeats per turn. Every caller still gets its answer only once its
 * write is committed, so durability is what a transaction per call gave.
 */
import type {SqliteDatabase} from '../../store/sqlite.js'

interface Pending {
  write: () => unknown
  resolve(value: unknown): void
  reject(error: unknown): void
}

export interface GroupCommit {
  /** Runs `write` (synchronous SQLite work) in the next batch; resolves after the commit. */
  run<T>(write: () => T): Promise<T>
  /** Commits what is queued now (before closing the database). */
  flush(): void
}

export function createGroupCommit(db: SqliteDatabase): GroupCommit {
  let queue: Pending[] = []
  const failed = Symbol('failed')
  // One write failing (its statement is rolled back by SQLite) does not fail its neighbours.
  const runAll = db.transaction((batch: Pending[]) =>
    batch.map((pending) => {
      try {
        return pending.write()
      } catch (error) {
        return {[failed]: error}
      }
    }),
  )
  const flush = () => {
    const batch = queue
    queue = []
    if (batch.length === 0) return
    let results: unknown[]
    try {
      results = runAll(batch)
    } catch (error) {
      // BEGIN or COMMIT failed (busy database): nothing of the batch was written.
      for (const pending of batch) pending.reject(error)
      return
    }
    batch.forEach((pending, i) => {
      const result = results[i]
      if (result !== null && typeof result === 'object' && failed in result) pending.reject(result[failed])
      else pending.resolve(result)
    })
  }
  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (queue.push({write, resolve: resolve as (value: unknown) => void, reject}) === 1) setImmediate(flush)
      })
    },
    flush,
  }
}
