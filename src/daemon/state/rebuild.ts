/**
 * Keeps the generated state current (issue 20, deliverable 3): after every
 * change that can alter it — a daemon route or task resolution writing
 * through the project writer, or the watcher seeing an editor, another
 * process or `git pull` — one rebuild runs, debounced, one at a time. It
 * uses the very builder `mesh roadmap build` uses (computeRoadmap and
 * writeRoadmapFiles), so the two never differ, and writes through the
 * project writer: atomic, never through a link, and never echoed by the
 * watcher (own-writes.ts); generated files keep no snapshot (project-writer.ts).
 * Each rebuild ends with `state.rebuilt` on /events, written or not.
 */
import {computeRoadmap, writeRoadmapFiles, type RoadmapState} from '../../standard/roadmap/index.js'
import {stableStringify} from '../../standard/roadmap/stable-json.js'
import {readContainedText} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {measureContextTree} from '../context-tree.js'
import {taskIndex} from '../tasks/index.js'
import {DAEMON_STATE_FILE, ROADMAP_PAGE_FILE, STATE_CAUSES_SHOWN, STATE_REBUILD_DEBOUNCE_MS, STATE_REBUILD_MAX_WAIT_MS, STATE_REBUILT_EVENT, STATE_TAG, STATE_WRITE_REASON} from './constants.js'
import {daemonState, type DaemonState} from './daemon-state.js'
import {renderRoadmapPage} from './roadmap-page.js'

/** `state.rebuilt`: what one rebuild read and wrote. */
export interface StateRebuiltData {
  /** What made it run: `.mesh/`-relative paths, or `start` (at most STATE_CAUSES_SHOWN). */
  causes: string[]
  /** How many causes there were in all. */
  cause_count: number
  /** Each generated file, `.mesh/…`, and whether its bytes changed. */
  files: Array<{path: string; changed: boolean}>
  tasks: number
  dispatchable: number
}

export interface StateRebuilder {
  /** A change to this `.mesh/`-relative path (or `start`): a rebuild runs once changes settle. */
  changed(cause: string): void
  /** Rebuilds now (after any rebuild under way) and resolves when it is written. */
  rebuildNow(cause: string): Promise<DaemonState | null>
  /** The state of the last rebuild, or null before the first. */
  last(): DaemonState | null
  /** Why the last rebuild failed, or null. */
  problem(): string | null
  close(): Promise<void>
}

export interface StateRebuilderOptions {
  debounceMs?: number
  maxWaitMs?: number
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function createStateRebuilder(context: DaemonContext, options: StateRebuilderOptions = {}): StateRebuilder {
  const debounceMs = options.debounceMs ?? STATE_REBUILD_DEBOUNCE_MS
  const maxWaitMs = options.maxWaitMs ?? STATE_REBUILD_MAX_WAIT_MS
  const meshDir = context.meshPath()
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let firstAt = 0
  let chain: Promise<unknown> = Promise.resolve()
  let latest: DaemonState | null = null
  let failure: string | null = null
  let closed = false

  /** Writes a generated file through the project writer, only when its bytes change. */
  const writeIfChanged = async (relative: string, content: string): Promise<boolean> => {
    const before = await readContainedText(meshDir, relative).catch(() => null)
    if (before === content) return false
    await context.writer.write(relative, content, {reason: STATE_WRITE_REASON})
    return true
  }

  const rebuildOnce = async (causes: string[]): Promise<DaemonState | null> => {
    const shownCauses = causes.slice(0, STATE_CAUSES_SHOWN)
    let roadmap: RoadmapState
    let state: DaemonState
    try {
      roadmap = await computeRoadmap(context.root, {records: await taskIndex(context).records()})
      state = daemonState({roadmap, contextTree: await measureContextTree(context), version: context.version, pid: process.pid})
    } catch (error) {
      // cluster.yaml gone or unreadable: the last good files stay; the next change tries again. /health says so meanwhile.
      return failed(reasonOf(error), shownCauses)
    }
    // Each file on its own: one the writer refuses (a linked architect/) must not keep the others stale.
    const files: StateRebuiltData['files'] = []
    const refused: string[] = []
    try {
      files.push(...(await writeRoadmapFiles(context.root, roadmap, (relative, content) => context.writer.write(relative, content, {reason: STATE_WRITE_REASON}).then(() => {}))))
    } catch (error) {
      refused.push(`roadmap/state.json: ${reasonOf(error)}`)
    }
    for (const [relative, content] of [[DAEMON_STATE_FILE, `${stableStringify(state)}\n`], [ROADMAP_PAGE_FILE, renderRoadmapPage(roadmap)]] as const) {
      try {
        files.push({path: `.mesh/${relative}`, changed: await writeIfChanged(relative, content)})
      } catch (error) {
        refused.push(`${relative}: ${reasonOf(error)}`)
      }
    }
    latest = state
    if (refused.length > 0) failed(refused.join('; '), shownCauses)
    else {
      if (failure !== null) context.debug.log({lvl: 'info', tag: STATE_TAG, msg: 'the generated state is written again'})
      failure = null
    }
    const written = files.filter((file) => file.changed).map((file) => file.path)
    context.debug.log({lvl: 'debug', tag: STATE_TAG, msg: written.length > 0 ? `rebuilt: ${written.join(', ')}` : 'rebuilt: nothing changed', data: {causes: shownCauses}})
    context.events.publish(STATE_REBUILT_EVENT, {causes: shownCauses, cause_count: causes.length, files, tasks: state.tasks.total, dispatchable: state.tasks.dispatchable.length} satisfies StateRebuiltData)
    return state
  }

  /** Says a failure once (until it changes or clears) and keeps it for /health. */
  const failed = (message: string, causes: string[]): null => {
    if (failure !== message) context.debug.log({lvl: 'warn', tag: STATE_TAG, msg: `could not rebuild the generated state: ${message}`, data: {causes}})
    failure = message
    return null
  }

  /** Runs a rebuild for everything pending, after the one under way. */
  const flush = (): Promise<DaemonState | null> => {
    clearTimeout(timer)
    timer = undefined
    const causes = [...pending]
    pending = new Set()
    const run = chain.then(() => (closed ? null : rebuildOnce(causes)))
    chain = run.catch(() => null)
    return run
  }

  return {
    changed(cause) {
      if (closed) return
      const now = context.clock()
      if (pending.size === 0) firstAt = now
      pending.add(cause)
      clearTimeout(timer)
      // Trailing debounce, bounded: a path written without pause is still rebuilt every maxWaitMs.
      timer = setTimeout(() => void flush(), Math.max(0, Math.min(debounceMs, firstAt + maxWaitMs - now)))
    },
    rebuildNow(cause) {
      pending.add(cause)
      return flush()
    },
    last: () => latest,
    problem: () => (failure === null ? null : `the generated state could not be rebuilt: ${failure}`),
    async close() {
      closed = true
      clearTimeout(timer)
      await chain
    },
  }
}
