/**
 * Reads the daemon's debug stream for `mesh daemon logs`: one tail, then
 * (with follow) a poll of `/debug/tail?cursor=` every half second, so no
 * event is shown twice. A daemon that restarts (a smaller cursor) is read
 * from its start again; one that stops is waited for, not given up on.
 */
import {setTimeout as sleep} from 'node:timers/promises'
import type {MeshError} from '../../lib/errors.js'
import {isMeshError} from '../../lib/errors.js'
import {callDaemon} from './daemon-client.js'

export interface DebugLine {
  ts: string
  src: string
  lvl: 'debug' | 'info' | 'warn' | 'error'
  tag: string
  msg: string
  conv?: string
  agent_id?: string
  data?: Record<string, unknown>
}

interface TailAnswer {
  events: DebugLine[]
  cursor: number
}

export const FOLLOW_INTERVAL_MS = 500

export interface FollowOptions {
  /** Resolves the daemon's address and token at each attempt: the daemon may restart on another port. */
  locate(): Promise<{url: string; token: string} | null>
  lastSecs: number
  follow: boolean
  signal?: AbortSignal
  intervalMs?: number
  onEvents(events: DebugLine[]): void
  /** The daemon stopped answering (follow keeps waiting), or answered again. */
  onState?(state: {connected: boolean; error?: MeshError}): void
}

export async function followDebug(options: FollowOptions): Promise<void> {
  const interval = options.intervalMs ?? FOLLOW_INTERVAL_MS
  let cursor: number | undefined
  let connected: boolean | undefined
  const report = (next: boolean, error?: MeshError) => {
    if (next !== connected) options.onState?.({connected: next, ...(error ? {error} : {})})
    connected = next
  }
  for (;;) {
    if (options.signal?.aborted) return
    const where = await options.locate()
    if (!where) {
      if (!options.follow) throw Object.assign(new Error('not running'), {code: 'daemon_not_running'})
      report(false)
    } else {
      try {
        const query = cursor === undefined ? `last=${options.lastSecs}` : `last=1800&cursor=${cursor}`
        const answer = await callDaemon<TailAnswer>({url: where.url, token: where.token, method: 'GET', path: `/debug/tail?${query}`})
        report(true)
        // A smaller cursor: the daemon restarted and counts from 0 again; everything it holds is new.
        const events = cursor !== undefined && answer.cursor < cursor ? (await callDaemon<TailAnswer>({url: where.url, token: where.token, method: 'GET', path: '/debug/tail?last=1800'})).events : answer.events
        cursor = answer.cursor
        if (events.length > 0) options.onEvents(events)
      } catch (error) {
        if (!options.follow || !isMeshError(error) || error.kind !== 'unavailable') throw error
        report(false, error)
      }
    }
    if (!options.follow) return
    try {
      await sleep(interval, undefined, {signal: options.signal})
    } catch {
      return
    }
  }
}
