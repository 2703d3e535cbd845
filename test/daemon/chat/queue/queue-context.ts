/** A queue store's context over a temp project: the real event bus, debug stream and project writer (snapshots on), an injected clock. */
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {openDebugStream} from '../../../../src/daemon/debug-stream.js'
import {createEventBus} from '../../../../src/daemon/events.js'
import type {DaemonEvent} from '../../../../src/protocol/events.js'
import {createProjectWriter} from '../../../../src/daemon/project-writer.js'
import type {QueueContext} from '../../../../src/daemon/chat/queue/store.js'

export interface QueueFixture {
  context: QueueContext
  root: string
  /** Every event published so far. */
  events: DaemonEvent<any>[]
  /** `.mesh/<parts…>` */
  path(...parts: string[]): string
  cleanup(): Promise<void>
}

export async function queueFixture(): Promise<QueueFixture> {
  const root = mkdtempSync(join(tmpdir(), 'mesh-queue-'))
  let now = Date.parse('2026-03-01T10:00:00.000Z')
  const clock = () => (now += 1000)
  const path = (...parts: string[]) => join(root, '.mesh', ...parts)
  const events: DaemonEvent<any>[] = []
  const bus = createEventBus({clock})
  bus.subscribe((event) => void events.push(event))
  mkdirSync(path(), {recursive: true})
  const writer = createProjectWriter({root, clock, snapshotsEnabled: () => true})
  const debug = await openDebugStream({root: path(), path: '.runtime/debug.jsonl', clock})
  return {
    context: {meshPath: path, clock, events: bus, debug, writer},
    root,
    events,
    path,
    async cleanup() {
      await debug.close()
      rmSync(root, {recursive: true, force: true})
    },
  }
}
