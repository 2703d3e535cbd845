/**
 * Sends queued turns as their conv frees up (spec: States and transitions —
 * a `queued` item at the head is dispatched when its conv goes idle:
 * `chat.assistant.final` and the conv neither live nor coordinating; one item
 * per finished turn). The engine decides idleness (`onIdle` already leaves
 * out coordinating convs); the dispatcher checks `isLive` once more under its
 * per-conv turn, since another idle listener may have started a turn there.
 * docs/daemon.md, Queue.
 */
import {createMutex, type Mutex} from '../../../lib/mutex.js'
import {CONV_PATTERN} from '../constants.js'
import type {ChatEngine} from '../types.js'
import type {Budget} from '../usage/budget.js'
import {BUDGET_EXHAUSTED} from '../usage/constants.js'
import {QUEUE_DEBUG_TAG} from './constants.js'
import {isMeshError} from '../../../lib/errors.js'
import {reasonOf, sendItem} from './send.js'
import {queueStoreOf, type QueueContext} from './store.js'

export interface QueueDispatch {
  /** A resumed queue: sends its head now when the conv is idle (not live, not coordinating), as an idle would. */
  kick(conv: string): void
  /** Resolves once every dispatch started so far has ended (tests; the area's stop). */
  settled(): Promise<void>
  /** Stops listening, then waits for a dispatch under way. Call it before the engine closes. */
  stop(): Promise<void>
}

/**
 * Recovers the queues (items a stopped daemon left `sending` become
 * `failed`), then sends one head item per idle of its conv. A refused send
 * fails its item (`failed_reason`) and is not retried: the next idle sends
 * the next item, the operator promotes the failed one again.
 */
export async function startQueueDispatch(context: QueueContext, engine: ChatEngine, options: {budget?: Budget; isCoordinating?: (conv: string) => boolean} = {}): Promise<QueueDispatch> {
  const store = queueStoreOf(context)
  const recovered = await store.recover()
  if (recovered > 0) context.debug.log({lvl: 'warn', tag: QUEUE_DEBUG_TAG.recover, msg: `${recovered} queue item(s) left sending by the last daemon are marked failed`})

  const turns = new Map<string, Mutex>()
  const running = new Set<Promise<void>>()
  /** Convs that went idle while the day's budget was spent: their queues are sent when it opens again. */
  const heldByBudget = new Set<string>()
  let stopped = false
  const isBudgetRefusal = (error: unknown) => isMeshError(error) && error.code === BUDGET_EXHAUSTED

  const dispatchOne = async (conv: string) => {
    if (stopped || !CONV_PATTERN.test(conv)) return
    if (engine.isLive(conv)) {
      context.debug.log({lvl: 'debug', tag: QUEUE_DEBUG_TAG.dispatch, conv, msg: 'the conv is live again: its queue waits for the next idle'})
      return
    }
    // A spent budget (issue 19): the items stay queued, in the file, until it opens again.
    if (options.budget?.exhausted()) {
      heldByBudget.add(conv)
      return
    }
    const claimed = await store.claim(conv, {from: ['queued']})
    if (!claimed) return
    try {
      const sent = await sendItem(store, engine, conv, claimed, (error) => (stopped || isBudgetRefusal(error) ? 'queued' : 'failed'))
      context.debug.log({lvl: 'info', tag: QUEUE_DEBUG_TAG.dispatch, conv, msg: `queue item ${sent.item.id} sent as turn ${sent.turn.turn_id}`})
    } catch (error) {
      if (isBudgetRefusal(error)) heldByBudget.add(conv)
      context.debug.log({lvl: 'warn', tag: QUEUE_DEBUG_TAG.dispatch, conv, msg: `queue item ${claimed.item.id} not sent: ${reasonOf(error)}`})
    }
  }

  const onIdle = (conv: string) => {
    if (stopped) return
    let turn = turns.get(conv)
    if (!turn) turns.set(conv, (turn = createMutex()))
    const work: Promise<void> = turn
      .run(() => dispatchOne(conv))
      .catch((error: unknown) => void context.debug.log({lvl: 'error', tag: QUEUE_DEBUG_TAG.dispatch, conv, msg: `queue dispatch failed: ${reasonOf(error)}`}))
      .finally(() => {
        running.delete(work)
        // Idle convs hold nothing: the map only has convs with a dispatch under way.
        if (running.size === 0) turns.clear()
      })
    running.add(work)
  }
  const unsubscribe = engine.onIdle(onIdle)
  const unsubscribeBudget = options.budget?.onRelease(() => {
    const convs = [...heldByBudget]
    heldByBudget.clear()
    for (const conv of convs) onIdle(conv)
  })

  const settled = async () => {
    while (running.size > 0) await Promise.all([...running])
  }
  return {
    kick(conv) {
      // onIdle leaves coordinating convs out before it gets here; a kick checks it itself.
      if (options.isCoordinating?.(conv)) {
        context.debug.log({lvl: 'debug', tag: QUEUE_DEBUG_TAG.dispatch, conv, msg: 'the conv waits on its delegation requests: its queue goes on at its next idle'})
        return
      }
      onIdle(conv)
    },
    settled,
    async stop() {
      stopped = true
      unsubscribe()
      unsubscribeBudget?.()
      await settled()
    },
  }
}
