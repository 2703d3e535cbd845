/**
 * Waking the architect (issue 20; docs/daemon.md, Architect). A wake is the
 * operator's `POST /architect/run`, or — automatic — a task that became
 * dispatchable, heard on the event bus: a transition (the route, task
 * resolution) or a task file changed by hand or by `git pull` (the watcher).
 * The disk is read on those events only, never polled. Every wake logs
 * `architect-wake`; one that starts no pass logs `architect-wake.skipped`
 * with its reason, one that fails `architect-wake.failed`. Wakes run one at
 * a time.
 *
 * Automatic wakes are debounced: at most one automatic pass per
 * `architect.min_interval_seconds` (default 60) since the last pass began;
 * a wake inside that interval is deferred to its end (one timer for all). A
 * wake that finds the architect busy is kept until it is idle again (its
 * pass ended or its turn finished), then tried once more; a stop drops it.
 */
import {conflict, isMeshError} from '../../lib/errors.js'
import {dispatchBoard, summarize, type Board} from '../../standard/tasks/index.js'
import type {ChatParts} from '../chat/index.js'
import {COORDINATOR} from '../chat/constants.js'
import type {DaemonContext} from '../context.js'
import {measureContextTree} from '../context-tree.js'
import {taskIndex} from '../tasks/index.js'
import {TAG_WAKE, TAG_WAKE_FAILED, TAG_WAKE_SKIPPED, TASK_EVENTS, WAKE_EVENT} from './constants.js'
import type {Passes} from './passes.js'
import type {ArchitectWakeData, PassTrigger, PassView, WakeSkipReason} from './wire.js'

export interface Waker {
  /** Reads the dispatchable tasks once, so only later changes wake the architect; then listens. */
  start(): Promise<void>
  /** The operator's wake: the pass started, or the skip's or failure's error (409, 429…). */
  run(): Promise<PassView>
  /** The board as it is now. */
  board(): Promise<Board>
  /** When a deferred automatic wake is due, or null. */
  nextWakeAt(): string | null
  /** Drops a wake kept for when the architect is idle, and a deferred one (the operator stopped the pass). */
  dropKept(): void
  close(): void
}

interface WakeRequest {
  trigger: PassTrigger
  /** Why it woke, in words. */
  why: string
  tasks?: string[]
  /** The deferred wake of the debounce: its time has come. */
  due?: boolean
}

export function createWaker(context: DaemonContext, passes: Passes, chat: ChatParts): Waker {
  let known: Set<string> = new Set()
  let refreshing: Promise<void> | null = null
  let dirty = false
  /** A wake skipped because the architect was busy: tried again once it is idle. */
  let kept = false
  let timer: NodeJS.Timeout | null = null
  let dueAt: number | null = null
  let lastStartMs: number | null = null
  let closed = false
  let unsubscribe: (() => void) | null = null
  let serial: Promise<unknown> = Promise.resolve()

  const tasks = taskIndex(context)
  const board = async () => dispatchBoard((await tasks.records()).map(summarize))
  const settings = () => context.settings().architect

  function publish(data: ArchitectWakeData) {
    context.events.publish(WAKE_EVENT, data)
  }

  function defer(ms: number) {
    const at = context.clock() + ms
    if (timer && dueAt !== null && dueAt <= at) return
    if (timer) clearTimeout(timer)
    dueAt = at
    timer = setTimeout(() => {
      timer = null
      dueAt = null
      void wake({trigger: 'auto', why: 'the wake deferred by architect.min_interval_seconds is due', due: true})
    }, ms)
    timer.unref()
  }

  /** One wake, start to end; run() gets its error, automatic ones only the log. */
  async function attempt(request: WakeRequest): Promise<PassView> {
    const {trigger} = request
    const head = `wake (${trigger}): ${request.why}`
    context.debug.log({lvl: 'info', tag: TAG_WAKE, msg: head, data: {trigger, ...(request.tasks ? {tasks: request.tasks} : {})}})
    const skip = (reason: WakeSkipReason, sentence: string, error: Error): never => {
      context.debug.log({lvl: 'info', tag: TAG_WAKE_SKIPPED, msg: `${head}; skipped: ${sentence}`, data: {trigger, reason}})
      publish({trigger, outcome: 'skipped', reason, text: `${head}; skipped: ${sentence}`, ...(request.tasks ? {tasks: request.tasks} : {})})
      throw error
    }
    if (trigger === 'auto' && !settings().auto) skip('auto_off', 'architect.auto is off in cluster.yaml', conflict('auto_off', 'architect.auto is off'))
    const busy = passes.busy()
    if (busy) {
      if (trigger === 'auto') kept = true
      const hint = passes.current() ? 'wait for it to end, or stop it with `mesh architect stop`' : 'try again once it is idle'
      skip('busy', `the architect is busy: ${busy}`, conflict('architect_busy', `The architect is busy: ${busy}; ${hint}`))
    }
    if (trigger === 'auto' && !request.due && lastStartMs !== null) {
      const wait = lastStartMs + settings().minIntervalSeconds * 1000 - context.clock()
      if (wait > 0) {
        defer(wait)
        skip('debounced', `a pass began less than ${settings().minIntervalSeconds} s ago (architect.min_interval_seconds); deferred to ${new Date(dueAt!).toISOString()}`, conflict('debounced', 'deferred'))
      }
    }
    const now = await board()
    if (now.dispatchable.length === 0) {
      const drafts = now.drafts.length > 0 ? `; ${now.drafts.length} draft(s) wait for the operator` : ''
      const waiting = now.waiting.length > 0 ? `; ${now.waiting.length} task(s) wait on dependencies` : ''
      skip('nothing_dispatchable', `no task is dispatchable${drafts}${waiting}`, conflict('nothing_dispatchable', `No task is dispatchable (next, active, in_progress, doing or planned, with every dependency done)${drafts}${waiting}`))
    }
    // spec v14: the daemon refuses architect dispatch while the context tree is over budget.
    const tree = await measureContextTree(context)
    if (tree.over_budget) {
      const words = `the context tree has ${tree.words} words, over its ${tree.budget_words}-word budget`
      skip('context_over_budget', words, conflict('context_over_budget', `The context tree has ${tree.words} words, over its ${tree.budget_words}-word budget; trim .mesh/context/ before the architect works`))
    }
    if (chat.budget.exhausted()) skip('budget_exhausted', "the day's budget is spent (--max-cost-per-day)", chat.budget.refusal())
    try {
      const pass = await passes.start(trigger, now, request.tasks)
      lastStartMs = context.clock()
      publish({trigger, outcome: 'started', text: `${head}; pass ${pass.pass_id} started`, pass_id: pass.pass_id, ...(request.tasks ? {tasks: request.tasks} : {})})
      return pass
    } catch (error) {
      const code = isMeshError(error) ? error.code : 'internal'
      context.debug.log({lvl: 'warn', tag: TAG_WAKE_FAILED, msg: `${head}; the pass could not start: ${(error as Error).message}`, data: {trigger, code}})
      publish({trigger, outcome: 'failed', text: `${head}; the pass could not start: ${(error as Error).message}`, code, ...(request.tasks ? {tasks: request.tasks} : {})})
      throw error
    }
  }

  /** Wakes one at a time: two never read the board or start a pass together. */
  function wake(request: WakeRequest): Promise<PassView> {
    const run = serial.then(() => (closed ? Promise.reject(new Error('the daemon is stopping')) : attempt(request)))
    serial = run.catch(() => undefined)
    return run
  }

  const wakeAuto = (request: Omit<WakeRequest, 'trigger'>) => void wake({trigger: 'auto', ...request}).catch(() => undefined)

  /** A task event: the board again, and a wake for each task that was not dispatchable before. */
  async function refresh() {
    if (refreshing) {
      dirty = true
      return refreshing
    }
    refreshing = (async () => {
      do {
        dirty = false
        try {
          const ids = new Set((await board()).dispatchable.map((task) => task.id))
          const became = [...ids].filter((id) => !known.has(id))
          known = ids
          if (became.length > 0 && !closed) wakeAuto({why: `${became.join(', ')} became dispatchable`, tasks: became})
        } catch (error) {
          context.debug.log({lvl: 'error', tag: TAG_WAKE_FAILED, msg: `could not read the tasks after a change: ${(error as Error).message}`})
        }
      } while (dirty && !closed)
    })()
    try {
      await refreshing
    } finally {
      refreshing = null
    }
  }

  function dropKept() {
    kept = false
    if (timer) clearTimeout(timer)
    timer = null
    dueAt = null
  }

  /** The architect is idle again: a wake kept while it was busy is tried now. */
  const idleAgain = () => {
    if (!kept || closed) return
    kept = false
    wakeAuto({why: 'the architect is idle again, and tasks became dispatchable while it was busy'})
  }

  return {
    async start() {
      known = new Set((await board()).dispatchable.map((task) => task.id))
      unsubscribe = context.events.subscribe((event) => {
        if (TASK_EVENTS.has(event.type)) void refresh()
      })
      // A stopped pass (the operator's stop, a cancelled turn, the daemon stopping) is not followed at once by another.
      passes.onEnded((ended) => (ended.status === 'stopped' ? dropKept() : idleAgain()))
      chat.engine.onIdle((conv) => {
        if (chat.engine.conversation(conv)?.member === COORDINATOR) idleAgain()
      })
    },
    run: () => wake({trigger: 'run', why: 'the operator asked for a pass'}),
    board,
    nextWakeAt: () => (dueAt === null ? null : new Date(dueAt).toISOString()),
    dropKept,
    close() {
      closed = true
      unsubscribe?.()
      if (timer) clearTimeout(timer)
      timer = null
    },
  }
}
