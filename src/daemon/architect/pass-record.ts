/**
 * The passes on disk: `.mesh/.runtime/architect/passes.json` holds the pass
 * under way (so the next start can end one a killed daemon left, with its
 * `architect.pass.ended`) and the last one that ended (so `mesh architect
 * status` shows its `decisions:` line after a restart). Rewritten whole and
 * atomically, never through a link (issue 18); writes never overlap and only
 * the newest state is written. A file that cannot be used reads as empty.
 */
import {isPathRefused, readContainedFileSync, writeContainedFile} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {RUNTIME_DIR} from '../constants.js'
import {PASS_RECORD_FILE, TAG_PASS} from './constants.js'
import type {EndedPass, PassBrief, PassTrigger} from './wire.js'

/** A pass under way, as kept on disk. */
export interface RunningPassRecord {
  pass_id: string
  trigger: PassTrigger
  conv: string
  started_at: string
  offered: string[]
  drafts: string[]
  briefs: PassBrief[]
  refused: Array<{member: string; task: string | null; code: string}>
}

export interface PassRecords {
  version: 1
  current: RunningPassRecord | null
  last: EndedPass | null
}

export interface PassRecordFile {
  load(): PassRecords
  save(records: PassRecords): void
  flush(): Promise<void>
}

const EMPTY: PassRecords = {version: 1, current: null, last: null}
const RELATIVE = [RUNTIME_DIR, ...PASS_RECORD_FILE].join('/')

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)
const isRunning = (value: unknown): value is RunningPassRecord =>
  isObject(value) && typeof value.pass_id === 'string' && typeof value.started_at === 'string' && Array.isArray(value.offered) && Array.isArray(value.drafts) && Array.isArray(value.briefs) && Array.isArray(value.refused)
const isEnded = (value: unknown): value is EndedPass => isObject(value) && typeof value.pass_id === 'string' && typeof value.decisions === 'string' && typeof value.ended_at === 'string'

export function passRecordFile(context: Pick<DaemonContext, 'meshPath' | 'debug'>): PassRecordFile {
  let pending: PassRecords | null = null
  let writing: Promise<void> | null = null
  const drain = async () => {
    while (pending) {
      const records = pending
      pending = null
      try {
        await writeContainedFile(context.meshPath(), RELATIVE, JSON.stringify(records, null, 2) + '\n')
      } catch (error) {
        context.debug.log({lvl: 'error', tag: TAG_PASS, msg: `could not save ${RELATIVE}: ${(error as Error).message}`})
      }
    }
    writing = null
  }
  return {
    load() {
      let data: unknown
      try {
        const bytes = readContainedFileSync(context.meshPath(), RELATIVE)
        if (bytes === null) return structuredClone(EMPTY)
        data = JSON.parse(bytes.toString('utf8'))
      } catch (error) {
        const why = isPathRefused(error) ? error.message : 'it is not valid JSON'
        context.debug.log({lvl: 'warn', tag: TAG_PASS, msg: `${RELATIVE} cannot be used (${why}); starting without a record of earlier passes`})
        return structuredClone(EMPTY)
      }
      if (!isObject(data)) return structuredClone(EMPTY)
      return {version: 1, current: isRunning(data.current) ? data.current : null, last: isEnded(data.last) ? data.last : null}
    },
    save(records) {
      pending = structuredClone(records)
      writing ??= drain()
    },
    async flush() {
      while (writing) await writing
    },
  }
}
