/**
 * The runtime record of a turn's client process (issue 19, Recovery):
 * `.mesh/.runtime/chat/procs/<turn_id>.json`, written once the client is
 * spawned and removed when its final is out. A daemon that is killed leaves
 * it behind, so the next start knows which client to stop and which turn
 * still owes a final (reap.ts). Written atomically, mode 0600, never through
 * a link (issue 18); never committed (`.runtime/` is on the deny-list).
 */
import {rm} from 'node:fs/promises'
import {listContainedFolder, readContainedText, writeContainedFile} from '../../../lib/contained-files.js'
import type {DaemonContext} from '../../context.js'
import {RUNTIME_DIR} from '../../constants.js'
import {CHAT_RUNTIME_DIR} from '../constants.js'
import {processStart} from './identity.js'

/** Relative to `.mesh/`. */
export const PROCS_DIR = `${RUNTIME_DIR}/${CHAT_RUNTIME_DIR}/procs`
/** The turn files clients read (MESH_TURN_FILE), relative to `.mesh/`: one left behind is a turn that never ended. */
export const TURNS_DIR = `${RUNTIME_DIR}/${CHAT_RUNTIME_DIR}/turns`

export interface ProcessRecord {
  version: 1
  turn_id: string
  conv: string
  member: string
  profile: string
  /** The client's pid; spawned in a group of its own, so also its process group. */
  pid: number
  /** What identifies that process (identity.ts), or null when it had already exited when recorded. */
  start: string | null
  daemon_pid: number
  started_at: string
  request_ids: string[]
}

type Context = Pick<DaemonContext, 'meshPath'>

const TURN_ID = /^[A-Za-z0-9_-]{1,64}$/
const recordPath = (turnId: string) => `${PROCS_DIR}/${turnId}.json`

export interface TrackedProcess {
  /** Removes the record (waiting for its write first). Never throws. */
  release(): Promise<void>
}

/** Records the turn's client `pid`; a write that fails is logged, and the turn runs on unrecorded. */
export function trackProcess(context: Pick<DaemonContext, 'meshPath' | 'debug'>, facts: Omit<ProcessRecord, 'version' | 'pid' | 'start' | 'daemon_pid'>, pid: number | undefined): TrackedProcess {
  if (pid === undefined || !TURN_ID.test(facts.turn_id)) return {release: async () => {}}
  const written = (async () => {
    const record: ProcessRecord = {version: 1, ...facts, pid, start: await processStart(pid), daemon_pid: process.pid}
    await writeContainedFile(context.meshPath(), recordPath(facts.turn_id), JSON.stringify(record) + '\n', {mode: 0o600})
  })().catch((error: Error) => context.debug.log({lvl: 'warn', tag: 'chat', msg: `could not record the client of turn ${facts.turn_id} (pid ${pid}): ${error.message}`, conv: facts.conv}))
  return {
    async release() {
      await written
      await rm(context.meshPath(...recordPath(facts.turn_id).split('/')), {force: true}).catch(() => {})
    },
  }
}

const isRecord = (value: unknown): value is ProcessRecord => {
  const record = value as ProcessRecord
  return (
    !!record &&
    typeof record === 'object' &&
    typeof record.turn_id === 'string' &&
    TURN_ID.test(record.turn_id) &&
    typeof record.conv === 'string' &&
    typeof record.member === 'string' &&
    typeof record.profile === 'string' &&
    Number.isInteger(record.pid) &&
    record.pid > 0 &&
    (record.start === null || typeof record.start === 'string')
  )
}

/** The turn ids named by the `.json` files of `dir` (relative to `.mesh/`); none when it is missing or refused. */
export async function turnIdsIn(context: Context, dir: string): Promise<string[]> {
  const entries = await listContainedFolder(context.meshPath(), dir).catch(() => [])
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((entry) => entry.name.slice(0, -'.json'.length)).filter((id) => TURN_ID.test(id))
}

/** The record of `turnId`, or null when it is missing or not a record. */
export async function readProcessRecord(context: Context, turnId: string): Promise<ProcessRecord | null> {
  try {
    const value: unknown = JSON.parse((await readContainedText(context.meshPath(), recordPath(turnId))) ?? 'null')
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

/** What the turn file of `turnId` says of its turn (conv, member, profile, request ids), or null. */
export async function readTurnFile(context: Context, turnId: string): Promise<Pick<ProcessRecord, 'conv' | 'member' | 'profile' | 'request_ids'> | null> {
  try {
    const value = JSON.parse((await readContainedText(context.meshPath(), `${TURNS_DIR}/${turnId}.json`)) ?? 'null') as Record<string, unknown> | null
    if (!value || typeof value.conv !== 'string' || typeof value.member !== 'string') return null
    const ids = Array.isArray(value.request_ids) ? value.request_ids.filter((id): id is string => typeof id === 'string') : []
    return {conv: value.conv, member: value.member, profile: typeof value.profile === 'string' ? value.profile : value.member, request_ids: ids}
  } catch {
    return null
  }
}

/** Removes the record and the turn file of `turnId`. Never throws. */
export async function forgetTurn(context: Context, turnId: string): Promise<void> {
  for (const path of [recordPath(turnId), `${TURNS_DIR}/${turnId}.json`]) await rm(context.meshPath(...path.split('/')), {force: true}).catch(() => {})
}
