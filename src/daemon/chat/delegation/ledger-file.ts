/**
 * The ledger on disk: `.mesh/.runtime/chat/ledger.json`, rewritten whole and
 * atomically after each change so a restart (or a crash) keeps the open
 * requests (docs/daemon.md, Delegation). Writes never overlap: while one is
 * on its way, later changes wait and only the newest state is written.
 * Read and written without following a link (issue 18): a linked ledger is
 * read as an empty one (with a warning) and replaced at the next write.
 */
import {isPathRefused, readContainedFileSync, writeContainedFile} from '../../../lib/contained-files.js'
import type {DaemonContext} from '../../context.js'
import {RECENT_CLOSED_KEPT} from './constants.js'
import type {LedgerRow, LedgerState} from './ledger.js'

export interface LedgerFile {
  /** What the file holds; read synchronously, once, while the chat area is built (its routes must exist before the daemon listens). */
  load(): LedgerState
  /** Queues a write of `state`; never throws (a failed write is a debug line and the next change retries). */
  persist(state: LedgerState): void
  /** Resolves once the newest state handed to persist() is on disk. */
  flush(): Promise<void>
}

const EMPTY: LedgerState = {version: 1, open: [], closed: []}

const isRow = (value: unknown): value is LedgerRow => {
  const row = value as LedgerRow
  return (
    !!row &&
    typeof row === 'object' &&
    typeof row.request_id === 'string' &&
    typeof row.conv === 'string' &&
    typeof row.member === 'string' &&
    !!row.requester &&
    typeof row.requester.member === 'string' &&
    (row.requester.conv === null || typeof row.requester.conv === 'string') &&
    Array.isArray(row.chain) &&
    row.chain.every((id) => typeof id === 'string') &&
    typeof row.brief === 'string' &&
    typeof row.opened_at === 'string' &&
    (row.status === 'open' || row.status === 'closed')
  )
}

type Context = Pick<DaemonContext, 'debug'>

/** The ledger at `root/relativePath` (the daemon: `.mesh/` and `.runtime/chat/ledger.json`). */
export function ledgerFile(context: Context, root: string, relativePath: string): LedgerFile {
  let pending: LedgerState | null = null
  let writing: Promise<void> | null = null

  const drain = async () => {
    while (pending) {
      const state = pending
      pending = null
      try {
        await writeContainedFile(root, relativePath, JSON.stringify(state, null, 2) + '\n')
      } catch (error) {
        context.debug.log({lvl: 'error', tag: 'delegation.ledger', msg: `could not save the delegation ledger: ${(error as Error).message}`})
      }
    }
    writing = null
  }

  return {
    load() {
      let text: string
      try {
        const bytes = readContainedFileSync(root, relativePath)
        if (bytes === null) return structuredClone(EMPTY)
        text = bytes.toString('utf8')
      } catch (error) {
        if (!isPathRefused(error)) throw error
        context.debug.log({lvl: 'warn', tag: 'delegation.ledger', msg: `${error.message}; starting with no open requests`})
        return structuredClone(EMPTY)
      }
      let data: Partial<LedgerState>
      try {
        data = JSON.parse(text) as Partial<LedgerState>
      } catch {
        // The file is ours and written atomically; if it is broken anyway, starting empty beats refusing to start.
        context.debug.log({lvl: 'warn', tag: 'delegation.ledger', msg: 'the delegation ledger is not valid JSON; starting with no open requests'})
        return structuredClone(EMPTY)
      }
      const rows = (list: unknown) => (Array.isArray(list) ? list.filter(isRow) : [])
      return {version: 1, open: rows(data.open).filter((row) => row.status === 'open'), closed: rows(data.closed).filter((row) => row.status === 'closed').slice(0, RECENT_CLOSED_KEPT)}
    },
    persist(state) {
      pending = state
      writing ??= drain()
    },
    async flush() {
      while (writing) await writing
    },
  }
}
